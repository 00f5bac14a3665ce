// SPDX-License-Identifier: MIT
#pragma once
// Running fp16/bf16/fp8 graphs on a backend that computes in F32 only ("by conversion", as the CPU backend does per
// node): the whole graph is re-typed to F32 once, before planning. Every value of those dtypes is exact in F32, so
// stored weights lose nothing; what changes is that intermediate results are no longer rounded to the narrow type
// after each node (the result is the fp32 computation of the narrow weights, which is closer to the exact answer than
// a native bf16 run).

#include "ir/graph.h"
#include "tensor.h"

namespace costscope {

// F16, BF16, F8E4M3 and F8E5M2: the float dtypes narrower than F32.
bool isNarrowFloat(DType t);
// Whether any tensor of g (or a Cast/ConstantOfShape target) is a narrow float.
bool hasNarrowFloats(const Graph& g);
// g with every narrow-float tensor as F32: shapes re-typed, stored data widened exactly, Cast and ConstantOfShape
// targets of a narrow float made F32. Other dtypes (F32, F64, integers, masks) are left as they are.
Graph widenedToF32(const Graph& g);
// Node n re-typed as widenedToF32(Graph) re-types it (its dtype, stored data, Cast/ConstantOfShape target).
void widenNodeToF32(Node& n);
// Whether n's Cast `to` or ConstantOfShape `dtype` attribute names a narrow float.
bool retargetsNarrowFloat(const Node& n);
// A narrow-float tensor as F32 (exact); any other tensor is returned as it is.
HostTensor widenedToF32(const HostTensor& t);

} // namespace costscope
