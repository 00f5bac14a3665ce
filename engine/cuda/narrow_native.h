// SPDX-License-Identifier: MIT
#pragma once
// Which fp16/bf16 ops the CUDA backend runs in their own dtype (engine/narrow_float_casts.h runs the others in F32
// between Casts). Each answer matches a lowering that takes the 16-bit operands as they are; every other op, fp8
// graphs and COSTSCOPE_CUDA_NATIVE_16BIT=0 run by conversion as before.

#include "ir/graph.h"

namespace costscope::cuda {

// F16 or BF16: the storage types the kernels load to float and store back, rounding to nearest even.
bool isSixteenBitFloat(DType t);
// Whether node n of g (an op that reads or writes a narrow float) runs natively (narrow_float_casts.h's predicate).
bool runsNarrowNatively(const Graph& g, const Node& n);
// Off where the environment sets COSTSCOPE_CUDA_NATIVE_16BIT=0 (A/B measurements against the widened graph).
bool nativeSixteenBitRequested();

} // namespace costscope::cuda
