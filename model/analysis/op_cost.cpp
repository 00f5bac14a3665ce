// SPDX-License-Identifier: MIT
#include "analysis/op_cost.h"

#include "analysis/fp8_gemm_rule.h"
#include "analysis/op_cost_detail.h"
#include "ir/fused_op.h"

namespace costscope {

namespace opcost {

std::optional<std::uint64_t> Ctx::bytesOf(const TensorRef& t)
{
    std::uint64_t bytes = 0;
    if (!t.shape || !t.elements || __builtin_mul_overflow(*t.elements, byteSize(t.shape->dtype), &bytes))
        return std::nullopt;
    return bytes;
}

std::optional<std::int64_t> Ctx::dim(const Shape* s, int i) const
{
    if (!s)
        return std::nullopt;
    const int rank = static_cast<int>(s->rank());
    const int at = i < 0 ? rank + i : i;
    if (at < 0 || at >= rank)
        return std::nullopt;
    auto v = s->dims[static_cast<std::size_t>(at)].resolve(b);
    if (!v || *v < 0)
        return std::nullopt;
    return v;
}

OpWork skippedWork(std::string why)
{
    OpWork w;
    w.skipped = true;
    w.note = std::move(why);
    return w;
}

bool addIoBytes(const Ctx& c, OpWork& w)
{
    std::uint64_t total = 0;
    for (const TensorRef& t : c.in) {
        if (!t.shape)
            continue;
        auto bytes = Ctx::bytesOf(t);
        if (!bytes) {
            w.skipped = true;
            w.note = "unbound symbol in input shape " + t.shape->toString();
            return false;
        }
        total += *bytes;
    }
    auto out = c.outBytes();
    if (!out) {
        w.skipped = true;
        w.note = "unbound symbol in output shape " + c.node.shape.toString();
        return false;
    }
    w.bytes = total + *out;
    return true;
}

} // namespace opcost

namespace {
OpWork workOf(const Node& node, const std::vector<TensorRef>& inputs, const TensorRef& output, const Bindings& b);
} // namespace

OpWork opWork(const Node& node, const InputShapes& inputs, const Bindings& b)
{
    std::vector<TensorRef> refs;
    for (const Shape* s : inputs)
        refs.push_back({s, s ? s->elements(b) : std::nullopt});
    return opWork(node, refs, TensorRef{&node.shape, node.shape.elements(b)}, b);
}

OpWork opWork(const Node& node, const std::vector<TensorRef>& inputs, const TensorRef& output, const Bindings& b)
{
    OpWork w = workOf(node, inputs, output, b);
    InputShapes shapes;
    shapes.reserve(inputs.size());
    for (const TensorRef& t : inputs)
        shapes.push_back(t.shape);
    w.precision = computePrecision(node, shapes);
    // An fp8 GEMM that the FP8 tensor cores do not take runs widened to F32 (analysis/fp8_gemm_rule.h).
    if (w.precision == Precision::Fp8 && shapes.size() >= 2 && shapes[0] && shapes[1]
        && isFp8GemmCandidate(node.op.kind, shapes[0]->dtype, shapes[1]->dtype)) {
        const bool addsC =
            node.op.kind == OpKind::Gemm && shapes.size() > 2 && node.op.attrs.doubleOr("beta", 1.0) != 0;
        const Fp8Gemm gemm{node.op.kind, shapes[0]->dtype, shapes[1]->dtype, node.shape.dtype,
                           w.gemmM,      w.gemmN,          w.gemmK,          addsC};
        if (auto why = fp8GemmRefusal(gemm)) {
            w.precision = Precision::Fp32;
            w.note += (w.note.empty() ? "" : "; ") + ("fp8 widened to fp32: " + *why);
        }
    }
    return w;
}

namespace {
OpWork workOf(const Node& node, const std::vector<TensorRef>& inputs, const TensorRef& output, const Bindings& b)
{
    const opcost::Ctx c{node, inputs, output, b};
    switch (node.op.kind) {
    case OpKind::Input:
    case OpKind::Param:
    case OpKind::Constant: {
        OpWork leaf;
        leaf.free = true;
        return leaf;
    }
    case OpKind::MatMul:
    case OpKind::FusedMatMulBiasAct:
        return opcost::matmul(c);
    case OpKind::Gemm:
        return opcost::gemm(c);
    case OpKind::Conv:
        return opcost::conv(c);
    case OpKind::ConvTranspose:
        return opcost::convTranspose(c);
    case OpKind::Attention:
        return opcost::attention(c);
    case OpKind::Pool:
    case OpKind::GlobalPool:
        return opcost::pool(c);
    case OpKind::LayerNorm:
    case OpKind::RmsNorm:
    case OpKind::BatchNorm:
    case OpKind::InstanceNorm:
    case OpKind::Lrn:
        return opcost::norm(c);
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
        return opcost::softmax(c);
    case OpKind::Reduce:
        return opcost::reduce(c);
    case OpKind::Fft:
    case OpKind::LogMel:
    case OpKind::WelchPeaks:
        return opcost::spectral(c);
    case OpKind::Gather:
    case OpKind::GatherElements:
        return opcost::gather(c);
    case OpKind::Binary:
    case OpKind::Activation:
    case OpKind::Compare:
    case OpKind::Cast:
    case OpKind::Where:
    case OpKind::Sum:
    case OpKind::Clip:
        return opcost::elementwise(c);
    case OpKind::Reshape:
    case OpKind::Transpose:
    case OpKind::Narrow:
    case OpKind::Slice:
    case OpKind::Concat:
    case OpKind::Expand:
    case OpKind::Dropout:
    case OpKind::Unsqueeze:
    case OpKind::Squeeze:
    case OpKind::Flatten:
    case OpKind::ConstantOfShape:
    case OpKind::Pad:
    case OpKind::Tile:
    case OpKind::Identity:
        return opcost::layout(c);
    case OpKind::Custom:
    case OpKind::Unknown:
        break;
    }
    if (isFusedNode(node))
        return opcost::fused(c);
    if (!node.subgraphs.empty())
        return opcost::controlFlow(c);
    OpWork w;
    if (opcost::addIoBytes(c, w))
        w.note = node.op.kind == OpKind::Custom ? "custom op: costed as memory-bound"
                                                : "unknown op: costed as memory-bound";
    return w;
}
} // namespace

} // namespace costscope
