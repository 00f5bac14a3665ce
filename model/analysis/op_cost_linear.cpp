// SPDX-License-Identifier: MIT
// Matmul-class ops: MatMul, FusedMatMulBiasAct, Gemm, Conv, ConvTranspose (both as implicit GEMMs) and Attention.
#include "analysis/op_cost_detail.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace costscope::opcost {

namespace {

bool flagAttr(const Attrs& a, const std::string& key)
{
    if (auto v = a.getBool(key))
        return *v;
    return a.intOr(key, 0) != 0;
}

double d(std::uint64_t v)
{
    return static_cast<double>(v);
}

} // namespace

OpWork matmul(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const std::uint64_t out = *c.outElements();
    const std::int64_t n = c.node.shape.rank() ? c.dim(&c.node.shape, -1).value_or(1) : 1;
    const std::int64_t m = c.node.shape.rank() >= 2 ? c.dim(&c.node.shape, -2).value_or(1) : 1;
    const std::int64_t k = c.dim(c.input(0), -1).value_or(0);
    if (out == 0 || n <= 0 || m <= 0)
        return w;
    const double batch = d(out) / static_cast<double>(m * n);
    w.flops = 2.0 * batch * static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
    w.gemmM = static_cast<std::int64_t>(batch) * m;
    w.gemmK = k;
    w.gemmN = n;
    if (c.node.op.kind == OpKind::FusedMatMulBiasAct) {
        double epilogue = c.in.size() >= 3 ? 1 : 0; // bias add
        if (auto act = c.node.op.attrs.getString("activation"))
            epilogue += elementwiseWeight(*act);
        w.flops += epilogue * d(out);
    }
    return w;
}

OpWork gemm(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const Attrs& a = c.node.op.attrs;
    const auto m = c.dim(&c.node.shape, 0), n = c.dim(&c.node.shape, 1);
    const auto k = c.dim(c.input(0), flagAttr(a, "trans_a") ? 0 : 1);
    if (!m || !n || !k)
        return skippedWork("Gemm needs 2-D A and output shapes");
    const double mn = static_cast<double>(*m) * static_cast<double>(*n);
    w.flops = 2.0 * mn * static_cast<double>(*k);
    if (a.doubleOr("alpha", 1.0) != 1.0)
        w.flops += mn;
    if (c.input(2)) {
        const double beta = a.doubleOr("beta", 1.0);
        w.flops += beta == 0.0 ? 0.0 : (beta == 1.0 ? mn : 2 * mn);
    }
    w.gemmM = *m;
    w.gemmK = *k;
    w.gemmN = *n;
    return w;
}

OpWork conv(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const std::uint64_t out = *c.outElements();
    const auto weightElems = c.inElements(1);
    const auto cout = c.dim(c.input(1), 0);
    if (!weightElems || !cout || *cout == 0 || out == 0)
        return w;
    // Weight [Cout, Cin/groups, k...]: each output element is a dot product of Cin/groups·Πk terms.
    const double perOutput = d(*weightElems) / static_cast<double>(*cout);
    w.flops = 2.0 * d(out) * perOutput + (c.input(2) ? d(out) : 0.0);
    const std::int64_t groups = std::max<std::int64_t>(1, c.node.op.attrs.intOr("groups", 1));
    w.gemmM = static_cast<std::int64_t>(out) / *cout;
    w.gemmK = static_cast<std::int64_t>(perOutput);
    w.gemmN = std::max<std::int64_t>(1, *cout / groups);
    w.gemmGroups = groups;
    // One sample and group at a time: weight rows × output positions × the dot product's length.
    const auto batch = c.dim(c.input(0), 0);
    if (batch && *batch > 0) {
        // A 1x1 kernel (the dot product is Cin/groups long) with stride 1 and no padding reads the input as is.
        const auto cin = c.dim(c.input(0), 1);
        bool pointwise = cin && *cin / groups == w.gemmK;
        for (const char* key : {"stride", "padding", "padding_end"})
            for (std::int64_t v : c.node.op.attrs.intsOr(key, {}))
                pointwise = pointwise && v == (key[0] == 's' ? 1 : 0);
        OpWork::PerSample& s = w.perSample;
        s.calls = *batch * groups;
        s.m = w.gemmN;
        s.k = w.gemmK;
        s.n = w.gemmM / *batch;
        s.columnElements = pointwise ? 0.0 : static_cast<double>(s.calls * s.k * s.n);
    }
    return w;
}

OpWork convTranspose(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const auto inElems = c.inElements(0);
    const auto weightElems = c.inElements(1);
    const auto cin = c.dim(c.input(1), 0);
    if (!inElems || !weightElems || !cin || *cin == 0)
        return w;
    // Weight [Cin, Cout/groups, k...]: every input element scatters into Cout/groups·Πk outputs.
    const double perInput = d(*weightElems) / static_cast<double>(*cin);
    w.flops = 2.0 * d(*inElems) * perInput + (c.input(2) ? d(*c.outElements()) : 0.0);
    const std::int64_t groups = std::max<std::int64_t>(1, c.node.op.attrs.intOr("groups", 1));
    w.gemmM = static_cast<std::int64_t>(*inElems) / *cin;
    w.gemmK = std::max<std::int64_t>(1, *cin / groups);
    w.gemmN = static_cast<std::int64_t>(perInput);
    return w;
}

namespace {

// Share of the (query, key) pairs a mask leaves to compute. Kernels that skip fully masked tiles (flash attention
// and its kin) do roughly this share of the dense work, so Costscope counts useful work: causal ≈ half.
double visibleShare(const AttrValue* mask, double sq, double sk, std::string* kind)
{
    *kind = "None";
    if (!mask || sq <= 0 || sk <= 0)
        return 1.0;
    std::int64_t window = 0;
    if (auto s = std::get_if<std::string>(mask)) {
        *kind = *s;
    } else if (auto raw = std::get_if<RawJson>(mask)) {
        auto j = nlohmann::json::parse(raw->text, nullptr, false);
        if (j.is_object() && j.contains("SlidingWindow") && j["SlidingWindow"].is_number_integer()) {
            *kind = "SlidingWindow";
            window = j["SlidingWindow"].get<std::int64_t>();
        }
    }
    if (*kind == "Causal") {
        // Query i (of the last sq positions) sees sk - sq + i + 1 keys.
        const double pairs = sk >= sq ? sq * (sk - sq) + sq * (sq + 1) / 2 : sk * (sk + 1) / 2;
        return pairs / (sq * sk);
    }
    if (*kind == "SlidingWindow" && window > 0)
        return std::min(static_cast<double>(window), sk) / sk;
    return 1.0;
}

} // namespace

OpWork attention(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const Shape* q = c.input(0);
    const Attrs& a = c.node.op.attrs;
    const std::int64_t heads = a.intOr("num_heads", q && q->rank() == 4 ? c.dim(q, 1).value_or(1) : 1);
    const std::int64_t headDim = a.intOr("head_dim", c.dim(q, -1).value_or(1));
    const auto sq = c.dim(q, -2), sk = c.dim(c.input(1), -2);
    const auto qElems = c.inElements(0), kElems = c.inElements(1);
    if (!sq || !sk || !qElems || !kElems || *sq == 0 || *sk == 0 || heads <= 0 || headDim <= 0)
        return w;
    const double batch = d(*qElems) / static_cast<double>(*sq * heads * headDim);
    const double kvHeads = d(*kElems) / (batch * static_cast<double>(*sk * headDim));
    const double scores = batch * static_cast<double>(heads) * static_cast<double>(*sq) * static_cast<double>(*sk);
    std::string maskKind;
    const double share = visibleShare(a.find("mask_kind"), static_cast<double>(*sq), static_cast<double>(*sk),
                                      &maskKind);
    const double maskAdd = maskKind == "Bias" || maskKind == "Custom" ? 1.0 : 0.0;
    // QK^T and PV: 2·2·d FLOPs per score; softmax about 5 per score; an additive mask one more.
    w.flops = share * scores * (4.0 * static_cast<double>(headDim) + 5.0 + maskAdd);
    w.gemmM = static_cast<std::int64_t>(batch) * heads * *sq;
    w.gemmK = headDim;
    w.gemmN = *sk;
    if (kvHeads + 0.5 < static_cast<double>(heads))
        w.note = std::to_string(heads) + " query heads share " + std::to_string(std::llround(kvHeads))
               + " KV heads";
    if (share < 1.0)
        w.note += (w.note.empty() ? "" : "; ") + maskKind + " mask: useful work counted";
    return w;
}

} // namespace costscope::opcost
