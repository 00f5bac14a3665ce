// SPDX-License-Identifier: MIT
#pragma once
// How far back a node's inputs were last touched, in bytes: the reuse distance a cache sees. A kernel whose inputs
// were written or read a few MB earlier finds them in the GPU's L2 (50 MB on an H100); one whose inputs were last
// touched a whole graph ago reads them from DRAM. For the small, latency-bound kernels of batch-1 models the
// difference is large: the same attention kernel measured 36 us with cold inputs (the kernel sampler's graphs, whose
// working set exceeds L2) and 23 us with warm ones (inside a transformer, or in a small graph), on an H100. The
// kernel predictors take this distance as a feature (kernel_predictor.h) so that samples from either context teach
// them the difference instead of averaging it away.
//
// The graph is taken as run over and over (what a measurement does and what a serving loop does): a leaf (a weight
// or an input) read first in a pass was last touched in the previous pass, the rest of that pass ago. Kernels run
// in the graph's topological order, one at a time; views alias what they view.
#include "analysis/op_cost.h"
#include "ir/graph.h"

#include <vector>

namespace costscope {

// Per node position: the byte-weighted mean reuse distance of its inputs (bytes touched by other kernels since each
// input was last touched), 0 for nodes that launch nothing or read nothing. `work` is the graph's per-node work, in
// graph order (GraphWork::nodes).
std::vector<double> inputReuseBytes(const Graph& g, const std::vector<OpWork>& work, const Bindings& bindings);

} // namespace costscope
