// SPDX-License-Identifier: MIT
#pragma once
// The precision a kernel computes in: what a device's peak rate depends on (analysis/dtype_rates.h). It follows
// the tensors' dtype, except TF32, which stores fp32 and multiplies on tensor cores with a 10-bit mantissa; a node
// asks for it with the compute_precision attribute (edit/precision_transform.h sets it).

#include "ir/graph.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace costscope {

// Fp8 stands for both OCP formats (E4M3 and E5M2): the datasheets give them one rate.
enum class Precision : std::uint8_t { Fp32, Tf32, Fp16, Bf16, Fp8, Int8, Fp64 };

inline constexpr Precision kAllPrecisions[] = {Precision::Fp32, Precision::Tf32, Precision::Fp16, Precision::Bf16,
                                               Precision::Fp8,  Precision::Int8, Precision::Fp64};

// "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp64".
std::string_view precisionName(Precision p);
std::optional<Precision> parsePrecision(std::string_view name);
// The precision data of this dtype is computed in (F32 and the types without a rate of their own: Fp32).
Precision precisionOfDType(DType t);

// TF32, FP16, BF16 and FP8: the precisions GPUs run on tensor cores, at rates of their own.
bool isReducedFloat(Precision p);

// Node attribute naming a compute precision other than its tensors' ("tf32").
inline constexpr const char* kComputePrecisionAttr = "compute_precision";

// What the node computes in: its compute_precision attribute when it names one, else the dtype of its first
// floating-point or 8-bit integer input (a GEMM's operands, not its fp32 accumulator), else its output's.
Precision computePrecision(const Node& node, const std::vector<const Shape*>& inputs);

} // namespace costscope
