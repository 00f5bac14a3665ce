// SPDX-License-Identifier: MIT
// Reduce, Softmax/LogSoftmax, LayerNorm/RmsNorm/InstanceNorm, GlobalPool and the fused Attention.
#include "attention_layout.h"
#include "cuda/cuda_lower.h"

#include <algorithm>
#include <cmath>

namespace costscope::cuda {

namespace {
// The shared storage type of a softmax or norm's input and output: F32, F16 or BF16.
std::optional<ElemType> normStorage(const DeviceValue& x, const DeviceValue& y)
{
    const auto t = programTypeOf(x.dtype);
    if (!t || x.dtype != y.dtype || (*t != ElemType::F32 && *t != ElemType::F16 && *t != ElemType::BF16))
        return std::nullopt;
    return t;
}

LowerResult softmaxLaunch(LowerContext& c, bool logarithm)
{
    const DeviceValue& x = *c.in[0];
    const auto storage = normStorage(x, c.out);
    if (!storage)
        return lowerError("Softmax: input " + valueString(x) + " and output " + valueString(c.out)
                          + " must share one of F32, F16, BF16");
    auto a = normalizeAxis(c.attrs().intOr("axis", -1), x.dims.size());
    if (!a || x.dims != c.out.dims)
        return lowerError("Softmax: axis out of range for " + valueString(x) + " or output differs");
    const auto axis = static_cast<std::size_t>(*a);
    const std::int64_t outer = product(x.dims, 0, axis), n = x.dims[axis], inner = product(x.dims, axis + 1);
    const void* px = x.ptr;
    void* py = c.out.ptr;
    const ElemType t = *storage;
    return Launch([=](cudaStream_t s) { launchSoftmax(px, py, t, outer, n, inner, logarithm, s); });
}

const void* optionalParam(const LowerContext& c, std::size_t i)
{
    return i < c.in.size() ? c.in[i]->ptr : nullptr;
}

LowerResult normLaunch(LowerContext& c, bool rms)
{
    const DeviceValue& x = *c.in[0];
    const auto storage = normStorage(x, c.out);
    if (!storage)
        return lowerError(std::string(rms ? "RmsNorm" : "LayerNorm") + ": input " + valueString(x) + " and output "
                          + valueString(c.out) + " must share one of F32, F16, BF16");
    auto a = normalizeAxis(c.attrs().intOr("axis", -1), x.dims.size());
    if (!a || x.dims != c.out.dims)
        return lowerError("norm: axis out of range for " + valueString(x) + " or output differs");
    const std::int64_t n = product(x.dims, static_cast<std::size_t>(*a));
    for (std::size_t i = 1; i < c.in.size(); ++i)
        if (c.in[i]->dtype != x.dtype || static_cast<std::int64_t>(c.in[i]->elements()) != n)
            return lowerError("norm: parameter " + valueString(*c.in[i]) + " must hold " + std::to_string(n) + " "
                              + std::string(dtypeName(x.dtype)) + " values");
    const std::int64_t rows = n ? product(x.dims) / n : 0;
    const auto eps = static_cast<float>(c.attrs().doubleOr("eps", rms ? 1e-6 : 1e-5));
    const void* scale = optionalParam(c, 1);
    const void* bias = rms ? nullptr : optionalParam(c, 2);
    const void* px = x.ptr;
    void* py = c.out.ptr;
    const ElemType t = *storage;
    return Launch([=](cudaStream_t s) { launchNorm(px, py, t, rows, n, eps, scale, bias, rms, s); });
}
} // namespace

LowerResult lowerReduce(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    if (auto r = requireF32(x, "Reduce input"); !r)
        return r.error();
    const std::string sub = c.node.op.subOp();
    ReduceOp op;
    if (sub == "Sum")
        op = ReduceOp::Sum;
    else if (sub == "Mean")
        op = ReduceOp::Mean;
    else if (sub == "Max")
        op = ReduceOp::Max;
    else if (sub == "Min")
        op = ReduceOp::Min;
    else if (sub == "Prod")
        op = ReduceOp::Prod;
    else
        return lowerError("unsupported Reduce op '" + sub + "'");
    const bool keep = c.attrs().getBool("keep_dim").value_or(c.attrs().intOr("keepdims", 1) != 0);
    std::vector<bool> reduced(x.dims.size(), false);
    auto axes = c.intsFromAttrOrConstant("axes", 1);
    if (!axes && c.in.size() > 1)
        return lowerError("Reduce: axes must be an attribute or a constant input on the CUDA backend");
    if (!axes || axes->empty())
        reduced.assign(x.dims.size(), true);
    else
        for (std::int64_t a : *axes) {
            auto n = normalizeAxis(a, x.dims.size());
            if (!n)
                return lowerError("Reduce: axis " + std::to_string(a) + " out of range for " + valueString(x));
            reduced[static_cast<std::size_t>(*n)] = true;
        }
    Dims dims;
    ReduceArgs args;
    args.op = op;
    const Dims strides = contiguousStrides(x.dims);
    std::size_t firstReduced = x.dims.size();
    bool trailing = true;
    for (std::size_t d = 0; d < x.dims.size(); ++d) {
        if (!reduced[d])
            dims.push_back(x.dims[d]);
        else if (keep)
            dims.push_back(1);
        if (reduced[d]) {
            firstReduced = std::min(firstReduced, d);
            args.redDims[args.redRank] = x.dims[d];
            args.redStrides[args.redRank++] = strides[d];
        } else {
            trailing = trailing && firstReduced == x.dims.size();
            args.keptDims[args.keptRank] = x.dims[d];
            args.keptStrides[args.keptRank++] = strides[d];
        }
    }
    if (dims != c.out.dims)
        return lowerError("Reduce: the result is " + dimsString(dims) + ", the node states " + valueString(c.out));
    args.outCount = product(dims);
    args.redCount = product(x.dims) / std::max<std::int64_t>(args.outCount, 1);
    const auto* px = static_cast<const float*>(x.ptr);
    auto* py = static_cast<float*>(c.out.ptr);
    if (trailing) {
        const std::int64_t rows = args.outCount, n = args.redCount;
        return Launch([=](cudaStream_t s) { launchReduceRows(px, py, rows, n, op, s); });
    }
    return Launch([=](cudaStream_t s) { launchReduceStrided(px, py, args, s); });
}

LowerResult lowerSoftmax(LowerContext& c)
{
    return softmaxLaunch(c, false);
}

LowerResult lowerLogSoftmax(LowerContext& c)
{
    return softmaxLaunch(c, true);
}

LowerResult lowerLayerNorm(LowerContext& c)
{
    return normLaunch(c, false);
}

LowerResult lowerRmsNorm(LowerContext& c)
{
    return normLaunch(c, true);
}

LowerResult lowerInstanceNorm(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    if (auto r = requireF32(x, "InstanceNorm input"); !r)
        return r.error();
    if (x.dims.size() < 2 || x.dims != c.out.dims || c.in.size() != 3)
        return lowerError("InstanceNorm needs [N, C, ...], scale and bias; got " + valueString(x));
    const std::int64_t ch = x.dims[1];
    for (std::size_t i = 1; i < 3; ++i)
        if (c.in[i]->dtype != DType::F32 || static_cast<std::int64_t>(c.in[i]->elements()) != ch)
            return lowerError("InstanceNorm: parameter " + valueString(*c.in[i]) + " must hold " + std::to_string(ch)
                              + " F32 values");
    // Each (sample, channel) plane is one row, normalised over its spatial extent with its channel's parameters.
    const std::int64_t rows = x.dims[0] * ch, n = product(x.dims, 2);
    const auto eps = static_cast<float>(c.attrs().doubleOr("eps", 1e-5));
    const void* px = x.ptr;
    void* py = c.out.ptr;
    const void* scale = optionalParam(c, 1);
    const void* bias = optionalParam(c, 2);
    return Launch([=](cudaStream_t s) { launchNorm(px, py, ElemType::F32, rows, n, eps, scale, bias, false, s, ch); });
}

LowerResult lowerGlobalPool(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    if (x.dims.size() < 3 || x.dtype != DType::F32)
        return lowerError("GlobalPool needs an F32 input [N, C, spatial...], got " + valueString(x));
    const std::string kind = c.attrs().stringOr("kind", "Avg");
    if (kind != "Max" && kind != "Avg")
        return lowerError("GlobalPool: unknown kind '" + kind + "'");
    Dims dims(x.dims.size(), 1);
    dims[0] = x.dims[0];
    dims[1] = x.dims[1];
    if (dims != c.out.dims)
        return lowerError("GlobalPool: the result is " + dimsString(dims) + ", the node states " + valueString(c.out));
    const std::int64_t rows = x.dims[0] * x.dims[1], n = product(x.dims, 2);
    const ReduceOp op = kind == "Max" ? ReduceOp::Max : ReduceOp::Mean;
    const auto* px = static_cast<const float*>(x.ptr);
    auto* py = static_cast<float*>(c.out.ptr);
    return Launch([=](cudaStream_t s) { launchReduceRows(px, py, rows, n, op, s); });
}

LowerResult lowerAttention(LowerContext& c)
{
    const DeviceValue &q = *c.in[0], &k = *c.in[1], &v = *c.in[2];
    const auto storage = normStorage(q, c.out);
    if (!storage || k.dtype != q.dtype || v.dtype != q.dtype)
        return lowerError("Attention: q " + valueString(q) + ", k " + valueString(k) + ", v " + valueString(v)
                          + " and the result " + valueString(c.out) + " must share one of F32, F16, BF16");
    auto layout =
        attentionLayout(q.dims, k.dims, v.dims, c.attrs().intOr("num_heads", 1), c.attrs().intOr("head_dim", 0));
    if (!layout)
        return layout.error();
    AttentionArgs a;
    a.heads = layout->heads;
    a.headDim = layout->headDim;
    a.storage = *storage;
    if (!attentionSupportsHeadDim(a.headDim, a.storage))
        return lowerError("Attention: head_dim " + std::to_string(a.headDim) + " is beyond the fused kernel's "
                          + (a.storage == ElemType::F32 ? "256" : "128 (16-bit)"));
    if (q.dims != c.out.dims)
        return lowerError("Attention: output " + valueString(c.out) + " differs from q " + valueString(q));
    a.sq = layout->sq;
    a.sk = layout->sk;
    a.batch = layout->batch;
    a.qStrides[0] = layout->q.batch;
    a.qStrides[1] = layout->q.head;
    a.qStrides[2] = layout->q.row;
    std::copy(a.qStrides, a.qStrides + 3, a.oStrides); // the output has q's dims, and so its layout
    a.kvStrides[0] = layout->kv.batch;
    a.kvStrides[1] = layout->kv.head;
    a.kvStrides[2] = layout->kv.row;
    a.kvGroup = layout->group();
    const auto mask = attentionMask(c.attrs());
    if (!mask)
        return lowerError("Attention: " + mask.error().message);
    switch (mask->kind) {
    case AttentionMask::None:
        a.mask = MaskKind::None;
        break;
    case AttentionMask::Causal:
        a.mask = MaskKind::Causal;
        break;
    case AttentionMask::Window:
        a.mask = MaskKind::Window;
        break;
    case AttentionMask::Input:
        a.mask = MaskKind::Input;
        break;
    }
    a.window = mask->window;
    if (a.mask == MaskKind::Input) {
        if (c.in.size() < 4)
            return lowerError("Attention: mask_kind needs a 4th (mask) input");
        const DeviceValue& m = *c.in[3];
        auto strides = broadcastStrides(m.dims, {a.batch, a.heads, a.sq, a.sk});
        // Bool, or additive in q's own dtype (attention_score.cuh reads F32, F16 and BF16 masks).
        if (!strides || (m.dtype != DType::Bool && m.dtype != q.dtype))
            return lowerError("Attention: mask " + valueString(m) + " must be Bool or "
                              + std::string(dtypeName(q.dtype)) + " (additive) broadcasting to ["
                              + std::to_string(a.batch) + "," + std::to_string(a.heads) + "," + std::to_string(a.sq)
                              + "," + std::to_string(a.sk) + "]");
        for (int d = 0; d < 4; ++d)
            a.maskStrides[d] = (*strides)[static_cast<std::size_t>(d)];
        a.maskData = m.ptr;
        a.maskIsBool = m.dtype == DType::Bool;
        a.maskStorage = a.storage;
    }
    a.scale = static_cast<float>(
        c.attrs().doubleOr("score_scale", 1.0 / std::sqrt(double(std::max<std::int64_t>(a.headDim, 1)))));
    a.softcap = static_cast<float>(c.attrs().doubleOr("attn_logit_softcap", 0.0));
    a.q = static_cast<const float*>(q.ptr);
    a.k = static_cast<const float*>(k.ptr);
    a.v = static_cast<const float*>(v.ptr);
    a.out = static_cast<float*>(c.out.ptr);
    return attentionLaunch(c.plan, a, c.pos, c.kernel);
}

} // namespace costscope::cuda
