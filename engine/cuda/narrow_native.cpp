// SPDX-License-Identifier: MIT
#include "cuda/narrow_native.h"

#include "analysis/fp8_gemm_rule.h"
#include "cuda/cuda_lower.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

namespace costscope::cuda {

namespace {
std::optional<DType> inputType(const Graph& g, const Node& n, std::size_t i)
{
    const Node* in = i < n.inputs.size() ? g.find(n.inputs[i]) : nullptr;
    return in ? std::optional<DType>(in->shape.dtype) : std::nullopt;
}

// Inputs `first`.. hold n's own dtype, of the `family` (the data operands of a layout op); later inputs are indices
// or shapes.
bool operandsAreOwnType(const Graph& g, const Node& n, std::size_t first, std::size_t count,
                        bool (*family)(DType) = isSixteenBitFloat)
{
    if (!family(n.shape.dtype))
        return false;
    for (std::size_t i = first; i < std::min(first + count, n.inputs.size()); ++i)
        if (inputType(g, n, i) != n.shape.dtype)
            return false;
    return true;
}

bool castable(std::optional<DType> t)
{
    if (!t)
        return false;
    switch (*t) {
    case DType::F32:
    case DType::F64:
    case DType::F16:
    case DType::BF16:
    case DType::F8E4M3:
    case DType::F8E5M2:
    case DType::I8:
    case DType::U8:
    case DType::Bool:
    case DType::I32:
    case DType::I64:
        return true;
    default:
        return false;
    }
}

// The tensor-core, flash and tiled attention kernels load 16-bit q, k and v (head dims up to 128: the last dim of q
// bounds the head dim in every layout) with no mask input, a Bool one or an additive one in q's dtype
// (attention_score.cuh loads it to float).
bool attentionRunsNatively(const Graph& g, const Node& n)
{
    if (n.inputs.size() < 3 || !operandsAreOwnType(g, n, 0, 3))
        return false;
    const Node* q = g.find(n.inputs[0]);
    const std::int64_t headDim = n.op.attrs.intOr("head_dim", 0);
    const bool staticLast = q && !q->shape.dims.empty() && q->shape.dims.back().isStatic();
    if (!(headDim > 0 && headDim <= 128) && !(staticLast && q->shape.dims.back().value <= 128))
        return false;
    return n.inputs.size() < 4 || inputType(g, n, 3) == DType::Bool || inputType(g, n, 3) == n.shape.dtype;
}
bool touchesFp8(const Graph& g, const Node& n)
{
    if (isFp8(n.shape.dtype))
        return true;
    return std::any_of(n.inputs.begin(), n.inputs.end(), [&](NodeId id) {
        const Node* in = g.find(id);
        return in && isFp8(in->shape.dtype);
    });
}

bool fp8RunsNatively(const Graph& g, const Node& n, const std::map<NodeId, std::string>& fp8Fallbacks)
{
    if (isAliasOp(n.op.kind))
        return operandsAreOwnType(g, n, 0, 1, isFp8);
    switch (n.op.kind) {
    case OpKind::Cast:
        return castable(inputType(g, n, 0)) && castable(n.shape.dtype);
    case OpKind::MatMul:
    case OpKind::Gemm:
    case OpKind::FusedMatMulBiasAct: {
        const auto a = inputType(g, n, 0), b = inputType(g, n, 1);
        return a && b && isFp8GemmCandidate(n.op.kind, *a, *b) && !fp8Fallbacks.contains(n.id);
    }
    // Moved by their element size (lower_layout.cpp, lower_select.cpp); Pad and Where are not: their fill values
    // and conditions are typed.
    case OpKind::Transpose:
    case OpKind::Slice:
    case OpKind::Narrow:
    case OpKind::Expand:
    case OpKind::Tile:
    case OpKind::Gather:
    case OpKind::GatherElements:
        return operandsAreOwnType(g, n, 0, 1, isFp8);
    case OpKind::Unknown:
        return n.op.name == "GatherND" && operandsAreOwnType(g, n, 0, 1, isFp8);
    case OpKind::Concat:
        return operandsAreOwnType(g, n, 0, n.inputs.size(), isFp8);
    default:
        return false;
    }
}
} // namespace

bool isSixteenBitFloat(DType t)
{
    return t == DType::F16 || t == DType::BF16;
}

RunsNarrowNatively narrowNativeRule(std::map<NodeId, std::string> fp8Fallbacks)
{
    return [fallbacks = std::move(fp8Fallbacks)](const Graph& g, const Node& n) {
        return touchesFp8(g, n) ? fp8RunsNatively(g, n, fallbacks) : runsNarrowNatively(g, n);
    };
}

bool nativeSixteenBitRequested()
{
    const char* env = std::getenv("COSTSCOPE_CUDA_NATIVE_16BIT");
    return !env || std::string(env) != "0";
}

bool runsNarrowNatively(const Graph& g, const Node& n)
{
    const std::size_t all = n.inputs.size();
    if (isAliasOp(n.op.kind))
        return operandsAreOwnType(g, n, 0, 1);
    switch (n.op.kind) {
    case OpKind::Cast:
        return castable(inputType(g, n, 0)) && castable(n.shape.dtype);
    case OpKind::ConstantOfShape:
        return isSixteenBitFloat(n.shape.dtype);
    // Layout ops move elements by their size (lower_layout.cpp, lower_select.cpp).
    case OpKind::Transpose:
    case OpKind::Slice:
    case OpKind::Narrow:
    case OpKind::Expand:
    case OpKind::Tile:
    case OpKind::Pad:
    case OpKind::Gather:
    case OpKind::GatherElements:
        return operandsAreOwnType(g, n, 0, 1);
    case OpKind::Unknown:
        return n.op.name == "GatherND" && operandsAreOwnType(g, n, 0, 1);
    case OpKind::Concat:
        return operandsAreOwnType(g, n, 0, all);
    case OpKind::Where:
        return operandsAreOwnType(g, n, 1, 2);
    // cuBLAS/cuBLASLt with 16-bit A, B, C and F32 accumulation (lower_matmul.cpp, lower_fused.cpp).
    case OpKind::MatMul:
    case OpKind::Gemm:
        return operandsAreOwnType(g, n, 0, all);
    case OpKind::FusedMatMulBiasAct: {
        const std::string act = n.op.attrs.stringOr("activation", "");
        return operandsAreOwnType(g, n, 0, all) && (act.empty() || isFusableActivation(act));
    }
    // Element-wise programs that load 16-bit, compute in float and store 16-bit (fused_codegen.h), alone or fused.
    case OpKind::Binary:
        return isFusableBinary(n.op.subOp()) && operandsAreOwnType(g, n, 0, all);
    case OpKind::Activation:
        return isFusableActivation(n.op.subOp()) && operandsAreOwnType(g, n, 0, all);
    // One block per row, statistics in F32 (reduce_norm.cu); the parameters in the input's dtype, as ONNX has them.
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
    case OpKind::LayerNorm:
    case OpKind::RmsNorm:
        return operandsAreOwnType(g, n, 0, all);
    case OpKind::Attention:
        return attentionRunsNatively(g, n);
    default:
        return false;
    }
}

} // namespace costscope::cuda
