// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/kernel.h"
#include "ir/narrow_types.h"

#include <optional>

namespace costscope::cpu {

// The ONNX type a Cast or QuantizeLinear node writes when it is one held by conversion (its "onnx_to" attribute,
// ir/narrow_types.h): nullopt when the node writes an ordinary dtype, an error when the type is one the CPU
// backend has no conversion for.
Result<std::optional<NarrowType>> narrowTarget(const KernelContext& ctx, const char* op);

// ONNX's "saturate" attribute (Cast, QuantizeLinear; default on).
bool saturateAttr(const KernelContext& ctx);

// Every value of `wide` (F64) rounded onto type t's values (castToNarrow), into `out` in t's carrier dtype.
KernelStatus writeNarrow(KernelContext& ctx, HostTensor& wide, NarrowType t, bool saturate, HostTensor& out);

} // namespace costscope::cpu
