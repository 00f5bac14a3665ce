// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"
#include "ir/precision.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

struct FusedWork;

// Work one node does, independent of any device: what the Costscope cost model turns into time.
struct OpWork {
    double flops = 0;
    std::uint64_t bytes = 0; // read inputs as stored + write the output
    bool free = false;       // a view or a leaf: no kernel, no dispatch, no bytes
    bool skipped = false;    // an unbound symbol (or an unusable shape) made the node uncostable
    // Matmul-class ops (MatMul, Gemm, FusedMatMulBiasAct, Conv as implicit GEMM, Attention): the GEMM shape that
    // sets the achievable rate; 0 for other ops.
    std::int64_t gemmM = 0, gemmK = 0, gemmN = 0;
    std::int64_t gemmGroups = 1; // Conv: independent GEMMs of that shape (groups)
    Precision precision = Precision::Fp32; // what the kernel computes in (ir/precision.h): picks its peak
    // Conv run one sample and group at a time (DeviceProfile::convPerSample): `calls` GEMMs of this shape, and the
    // im2col elements written in all (0 where the input serves as the column matrix).
    struct PerSample {
        std::int64_t calls = 0, m = 0, k = 0, n = 0;
        double columnElements = 0;
    } perSample;
    // A view's tensor bytes: what a backend that copies instead of aliasing reads and writes once each.
    std::uint64_t viewBytes = 0;
    // A fused node (ir/fused_op.h): the kernels it stands for, each member's work to be priced at its own rate;
    // null for every other node (shared so that copying a graph's work stays cheap).
    std::shared_ptr<const FusedWork> fused;
    std::string note;
};

// One member of a fused node: its op (which picks its rate) and its work.
struct FusedMemberWork {
    Op op;
    OpWork work;
    double repeat = 1; // times it runs: a Loop or Scan body's ops run once per iteration
};

struct FusedWork {
    OpClass opClass = OpClass::ElementWise; // FusedKernel::opClass: the class the kernel is corrected as
    bool hostSync = false;
    std::vector<FusedMemberWork> members;   // the members that are not leaves, in graph order
};

// Input shapes of a node in input order (null where an input names no node).
using InputShapes = std::vector<const Shape*>;

// A tensor with its element count already resolved for the bindings (nullopt: unbound), so that a whole-graph
// pass resolves each node's shape once instead of once per use.
struct TensorRef {
    const Shape* shape = nullptr;
    std::optional<std::uint64_t> elements;
};

// FLOPs and bytes of one node given its input shapes and the symbol bindings. Conventions (why, not only what):
// - bytes = Σ bytes of each input tensor as stored (a broadcast operand counts its own size, not the output's)
//   + bytes of the output; the dtype of each tensor sets its size.
// - Views cost nothing: Reshape, Narrow, Squeeze, Unsqueeze, Flatten, Identity, Dropout (inference) and the leaves.
//   Transpose is NOT free here although RLX treats it as metadata: a consumer that needs a contiguous layout makes
//   the backends copy, so Costscope charges one read and one write of the tensor.
// - Copies (Concat, Slice, Pad, Tile, Expand, ConstantOfShape) move bytes and do no FLOPs; Slice reads only what
//   it keeps, Tile/Expand read their source once (it stays in cache) and write the output.
// - Element-wise: 1 FLOP per output element per operation; transcendentals are weighted by their usual polynomial
//   cost (see elementwiseWeight in op_cost_elementwise.cpp).
// - Unknown and Custom ops are memory-bound: bytes in + out, no FLOPs, with a note saying so.
// - Control flow (If, Loop, Scan: Node::subgraphs) does the work of its body's nodes, each priced at its own rate:
//   a Loop's body times its trip count when the file states it as a constant, a Scan's body once per slice, an If
//   its costlier branch. A Loop whose trip count is known only at run time cannot be costed: skipped, with a note.
// - A fused node reads what enters its set and writes its exit (bytes), does the FLOPs of its members, and carries
//   each member's work (OpWork::fused) so that a cost model prices the GEMM it holds as a GEMM.
OpWork opWork(const Node& node, const InputShapes& inputs, const Bindings& b);
// The same with resolved element counts (`output` is the node's own shape).
OpWork opWork(const Node& node, const std::vector<TensorRef>& inputs, const TensorRef& output, const Bindings& b);

// Weight in FLOPs per element of an activation or binary sub-op ("Gelu", "Add").
double elementwiseWeight(const std::string& subOp);

} // namespace costscope
