// SPDX-License-Identifier: MIT
#pragma once

#include "formats/onnx_ops.h"

namespace costscope::onnx_import {

// Output 0's shape of ONNX ops that import as unknown ops and whose shape libonnx 1.12 cannot infer (opsets 18 to
// 21: Resize with axes or keep_aspect_ratio_policy, CenterCropPad, Col2Im, GroupNormalization), from the inputs'
// shapes and constant inputs; nullopt when the op is none of them or a needed input is not constant.
std::optional<Shape> newerOpShape(const NodeContext& ctx);

} // namespace costscope::onnx_import
