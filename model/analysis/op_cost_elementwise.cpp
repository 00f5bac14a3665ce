// SPDX-License-Identifier: MIT
// Element-wise and layout ops: bytes dominate; FLOPs are one per element per operation.
#include "analysis/op_cost_detail.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace costscope {

double elementwiseWeight(const std::string& subOp)
{
    // Rough FLOP equivalents of the polynomial/iterative evaluation libm and GPU intrinsics use: exp/log/tanh-class
    // functions cost several multiply-adds, Gelu combines tanh (or erf) with a few products.
    static constexpr std::array<std::pair<std::string_view, double>, 16> weights{{
        {"Exp", 4}, {"Log", 4}, {"Sqrt", 4}, {"Rsqrt", 4}, {"Sigmoid", 5}, {"Tanh", 6},
        {"Silu", 6}, {"Gelu", 8}, {"GeluApprox", 8}, {"Erf", 6}, {"Softplus", 8}, {"Sin", 6},
        {"Cos", 6}, {"Pow", 8}, {"Div", 1}, {"Recip", 1},
    }};
    for (const auto& [name, w] : weights)
        if (name == subOp)
            return w;
    return 1; // Add, Mul, Relu, Neg, Abs, comparisons...
}

namespace opcost {

OpWork elementwise(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const double out = static_cast<double>(*c.outElements());
    double perElement = 1;
    switch (c.node.op.kind) {
    case OpKind::Binary:
    case OpKind::Activation:
        perElement = elementwiseWeight(c.node.op.subOp());
        break;
    case OpKind::Sum: // n inputs: n - 1 additions per element
        perElement = static_cast<double>(std::max<std::size_t>(c.in.size(), 2) - 1);
        break;
    case OpKind::Clip: // a max and a min
        perElement = 2;
        break;
    default: // Compare, Cast, Where: one operation
        break;
    }
    w.flops = out * perElement;
    return w;
}

OpWork layout(const Ctx& c)
{
    OpWork w;
    switch (c.node.op.kind) {
    case OpKind::Reshape:
    case OpKind::Narrow:
    case OpKind::Dropout:
    case OpKind::Unsqueeze:
    case OpKind::Squeeze:
    case OpKind::Flatten:
    case OpKind::Identity:
        w.free = true;
        w.viewBytes = c.outBytes().value_or(0);
        return w;
    default:
        break;
    }
    auto outBytes = c.outBytes();
    if (!outBytes)
        return skippedWork("unbound symbol in output shape " + c.node.shape.toString());
    switch (c.node.op.kind) {
    case OpKind::Slice: // reads what it keeps (the extra inputs are small index tensors, ignored)
        w.bytes = 2 * *outBytes;
        return w;
    case OpKind::ConstantOfShape: // writes only
        w.bytes = *outBytes;
        return w;
    case OpKind::Tile:
    case OpKind::Expand: { // the source once (stays in cache), the output written
        auto src = c.input(0) ? Ctx::bytesOf(c.in[0]) : std::optional<std::uint64_t>(0);
        if (!src)
            return skippedWork("unbound symbol in input shape " + c.input(0)->toString());
        w.bytes = *src + *outBytes;
        return w;
    }
    default: // Transpose, Concat, Pad: every input read once, the output written
        addIoBytes(c, w);
        return w;
    }
}

} // namespace opcost
} // namespace costscope
