// SPDX-License-Identifier: MIT
#pragma once
// Running fp16/bf16 graphs natively where a backend can, by conversion where it cannot: the ops the backend runs in
// their narrow dtype keep it (half the bytes moved and stored, tensor-core GEMMs), every other op that reads or
// writes a narrow float runs in F32 between local Casts (widen_to_f32.h's semantics, op by op). A value that one
// F32-run op hands to another stays F32 (no narrowing Cast pair between them), so a graph the backend runs no op of
// natively computes exactly as widenedToF32(g) does; graph outputs keep their declared dtype.

#include "ir/graph.h"

#include <functional>

namespace costscope {

// Whether the backend runs node n (of graph g, an op that reads or writes a narrow float) in its own dtypes.
using RunsNarrowNatively = std::function<bool(const Graph& g, const Node& n)>;

// g with Cast nodes around the ops `native` refuses. Those ops are re-typed to F32 (their narrow Cast and
// ConstantOfShape targets too); narrow Params and Constants with data that only such ops read are widened in place
// rather than cast on every run. The new Casts take ids after g's and the names of the values they convert with
// ":f32" or ":<dtype>" appended. Input, Param and Constant nodes are never asked about.
Graph withNarrowFloatCasts(const Graph& g, const RunsNarrowNatively& native);

// Whether node n of g reads or writes a narrow float (widen_to_f32.h's isNarrowFloat), or targets one.
bool touchesNarrowFloat(const Graph& g, const Node& n);

} // namespace costscope
