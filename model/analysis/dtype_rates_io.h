// SPDX-License-Identifier: MIT
#pragma once
// The per-precision keys of device profile JSON (profile_io.h), both optional and saved only when set:
//   "dtype_peaks": {"bf16": {"matrix_gflops": 989400, "vector_gflops": 133800}, ...}   dense datasheet peaks
//   "dtype_gemm_tables": {"bf16": [{"m":..,"k":..,"n":..,"gflops":..}], ...}         measured by calibration
// Keys are precision names (ir/precision.h: fp32, tf32, fp16, bf16, fp8, int8, fp64).

#include "analysis/dtype_rates.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace costscope {

void writeDTypeRates(const DTypeRates& r, nlohmann::ordered_json& profile);
// Reads both keys of `profile` into `out`; the first problem as (key path, what is wrong).
std::optional<std::pair<std::string, std::string>> readDTypeRates(const nlohmann::ordered_json& profile,
                                                                  DTypeRates& out);

} // namespace costscope
