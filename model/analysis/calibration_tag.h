// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace costscope {

// How much a cost model's numbers are worth, as RLX 0.2.16 tags its models (cost-model.md §3): Measured (a
// calibration cache, our calibration or a fit to measured runs fed it), ArchDefault (RLX's CPU rows, Metal with a
// known GPU family, datasheet presets) or Uncalibrated (RLX's no-device fallbacks of CUDA, ROCm and wgpu, MLX,
// Metal with an unknown family, the discrete-GPU fallback). The tag never changes a cost; it decides which models
// the device pick may rank (pick_rule.h).
enum class Calibration { Measured, ArchDefault, Uncalibrated };

// "Measured", "ArchDefault", "Uncalibrated" (RLX's names).
std::string_view calibrationName(Calibration c);
// RLX's names, case-insensitive; nullopt for anything else.
std::optional<Calibration> parseCalibration(std::string_view text);

} // namespace costscope
