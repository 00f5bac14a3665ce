// SPDX-License-Identifier: MIT
#pragma once
// Which fp16/bf16 ops the CUDA backend runs in their own dtype (engine/narrow_float_casts.h runs the others in F32
// between Casts). Each answer matches a lowering that takes the 16-bit operands as they are; every other op and
// COSTSCOPE_CUDA_NATIVE_16BIT=0 run by conversion as before. fp8 tensors are stored as bytes: the fp8 GEMMs that
// cuda/fp8_dispatch.h accepts run as FP8 products, Casts convert to and from fp8, the ops that only move bytes move
// them; every other op on fp8 runs in F32 between Casts.

#include "ir/graph.h"
#include "narrow_float_casts.h"

#include <map>
#include <string>

namespace costscope::cuda {

// F16 or BF16: the storage types the kernels load to float and store back, rounding to nearest even.
bool isSixteenBitFloat(DType t);
// Whether node n of g (an op that reads or writes a narrow float) runs natively (narrow_float_casts.h's predicate).
bool runsNarrowNatively(const Graph& g, const Node& n);
// runsNarrowNatively, and for nodes that read or write fp8: the fp8 GEMMs that are not among `fp8Fallbacks`
// (cuda/fp8_dispatch.h's fp8GemmFallbacks), Casts, reshapes and the layout ops whose data operands share the node's
// fp8 dtype.
RunsNarrowNatively narrowNativeRule(std::map<NodeId, std::string> fp8Fallbacks);
// Off where the environment sets COSTSCOPE_CUDA_NATIVE_16BIT=0 (A/B measurements against the widened graph).
bool nativeSixteenBitRequested();

} // namespace costscope::cuda
