// SPDX-License-Identifier: MIT
// MatMul, FusedMatMulBiasAct and Gemm (matmul.comp); Conv (conv.comp, implicit GEMM), ConvTranspose
// (conv_transpose.comp); Pool and GlobalPool (pool.comp). Convolutions and pools take 1 to 3 spatial dims.
#include "vulkan/vk_lowering.h"

#include <algorithm>

namespace costscope::vk {

namespace {
constexpr std::uint32_t kMaxGroups = 65535;

struct MatMulSpec {
    std::int64_t m = 0, n = 0, k = 0;
    bool ta = false, tb = false;
    std::int64_t lda = 0, ldb = 0;
    double alpha = 1.0, beta = 0.0;
    std::size_t cin = kNoSlot;
    std::int64_t cRow = 0, cCol = 0;
    int act = -1;
    Dims batch;                     // output batch dims
    Dims aStride, bStride, cStride; // per batch dim, in elements
};

LowerStatus emitMatMul(Lowering& l, const MatMulSpec& s, std::size_t a, std::size_t b, std::size_t dst)
{
    const std::uint64_t batches = elementCount(s.batch);
    const std::uint64_t gx = (static_cast<std::uint64_t>(s.n) + 127) / 128, gy = (static_cast<std::uint64_t>(s.m) + 127) / 128;
    if (batches > kMaxGroups || gx > kMaxGroups || gy > kMaxGroups)
        return lowerError("MatMul: " + std::to_string(batches) + " batches of " + std::to_string(s.m) + "x"
                          + std::to_string(s.n) + " exceed the dispatch limits");
    Dispatch d{"matmul",
               {i32(s.m), i32(s.n), i32(s.k), s.ta, s.tb, i32(s.lda), i32(s.ldb), floatBits(s.alpha), floatBits(s.beta),
                s.cin != kNoSlot, i32(s.cRow), i32(s.cCol), s.act, i32(s.batch.size()), 0, 0},
               {a, b, s.cin, dst},
               {static_cast<std::uint32_t>(gx), static_cast<std::uint32_t>(gy), static_cast<std::uint32_t>(batches)}};
    for (std::size_t i = 0; i < s.batch.size(); ++i)
        d.params.insert(d.params.end(), {i32(s.batch[i]), i32(s.aStride[i]), i32(s.bStride[i]),
                                         i32(s.cStride.empty() ? 0 : s.cStride[i])});
    // matmul.comp reads an operand as 16-byte vectors along its contiguous dim when every vector is whole and
    // aligned: that dim, the leading dimension and the batch strides multiples of 4.
    const auto vectorised = [](std::int64_t contiguous, std::int64_t ld, const Dims& strides) {
        return contiguous % 4 == 0 && ld % 4 == 0
            && std::all_of(strides.begin(), strides.end(), [](std::int64_t v) { return v % 4 == 0; });
    };
    d.constants = {vectorised(s.ta ? s.m : s.k, s.lda, s.aStride) ? 1 : 0,
                   vectorised(s.tb ? s.k : s.n, s.ldb, s.bStride) ? 1 : 0};
    if (!batches || !s.m || !s.n)
        return true;
    const std::uint64_t bBytes = static_cast<std::uint64_t>(s.k) * static_cast<std::uint64_t>(s.n) * 4;
    if (bBytes <= l.maxBinding || !s.tb || batches != 1) {
        l.dispatches.push_back(std::move(d));
        return true;
    }
    // A transposed B (the fully connected layers' [N, K] weights) wider than one binding: bind it in pieces of
    // whole rows, 128 at a time so that every piece starts at an aligned offset, each piece computing its columns.
    const std::uint64_t rowBytes = static_cast<std::uint64_t>(s.k) * 4;
    const std::int64_t piece = static_cast<std::int64_t>(l.maxBinding / rowBytes / 128 * 128);
    if (piece < 128)
        return lowerError("MatMul: rows of " + std::to_string(rowBytes) + " bytes are too long for the device");
    for (std::int64_t n0 = 0; n0 < s.n; n0 += piece) {
        const std::int64_t cols = std::min(piece, s.n - n0);
        Dispatch part = d;
        part.params[1] = i32(cols);
        part.params[14] = i32(s.n);
        part.params[15] = i32(n0);
        part.groups[0] = static_cast<std::uint32_t>((cols + 127) / 128);
        part.ranges = {{0, 0}, {static_cast<std::uint64_t>(n0) * rowBytes, static_cast<std::uint64_t>(cols) * rowBytes}};
        l.dispatches.push_back(std::move(part));
    }
    return true;
}

LowerStatus matmulInto(Lowering& l, MatMulSpec& s)
{
    const Value& a = *l.in[0];
    const Value& b = *l.in[1];
    if (a.dtype != DType::F32 || b.dtype != DType::F32)
        return lowerError("MatMul needs F32 inputs, got " + std::string(dtypeName(a.dtype)) + " and "
                          + std::string(dtypeName(b.dtype)));
    const auto md = matmulDims(a.dims, b.dims, [&](std::size_t i) { return dimsString(i == 0 ? a.dims : b.dims); });
    if (!md)
        return md.error();
    s.m = md->m;
    s.k = md->k;
    s.n = md->n;
    l.out = {md->out, DType::F32, kNoSlot};
    s.batch = md->batch;
    s.aStride = broadcastStrides(md->aBatch, md->batch);
    s.bStride = broadcastStrides(md->bBatch, md->batch);
    for (auto& v : s.aStride)
        v *= s.m * s.k;
    for (auto& v : s.bStride)
        v *= s.k * s.n;
    s.lda = s.k;
    s.ldb = s.n;
    return true;
}

Dims spatialDims(const Dims& d)
{
    return Dims(d.begin() + 2, d.end());
}

// Spatial dims as (D, H, W), missing leading dims filled with `fill`.
std::array<std::int64_t, 3> dhw(const Dims& spatial, std::int64_t fill = 1)
{
    std::array<std::int64_t, 3> v{fill, fill, fill};
    for (std::size_t i = 0; i < spatial.size() && i < 3; ++i)
        v[3 - spatial.size() + i] = spatial[i];
    return v;
}

void append(std::vector<std::int32_t>& p, const std::array<std::int64_t, 3>& v)
{
    for (std::int64_t x : v)
        p.push_back(i32(x));
}
} // namespace

LowerStatus lowerMatMul(Lowering& l)
{
    MatMulSpec s;
    if (auto r = matmulInto(l, s); !r)
        return r;
    const std::size_t dst = l.outputSlot();
    return emitMatMul(l, s, l.in[0]->slot, l.in[1]->slot, dst);
}

LowerStatus lowerFusedMatMulBiasAct(Lowering& l)
{
    MatMulSpec s;
    if (auto r = matmulInto(l, s); !r)
        return r;
    if (l.in.size() > 2) {
        const Value& bias = *l.in[2];
        if (bias.dtype != DType::F32 || static_cast<std::int64_t>(elementCount(bias.dims)) != s.n)
            return lowerError("FusedMatMulBiasAct: bias " + dimsString(bias.dims) + " must hold " + std::to_string(s.n)
                              + " F32 values");
        s.cin = bias.slot;
        s.beta = 1.0;
        s.cCol = 1;
    }
    const std::string act = l.attrs().stringOr("activation", "");
    if (!act.empty()) {
        s.act = activationIndex(act);
        if (s.act < 0)
            return lowerError("FusedMatMulBiasAct: unsupported activation '" + act + "'");
    }
    const std::size_t dst = l.outputSlot();
    return emitMatMul(l, s, l.in[0]->slot, l.in[1]->slot, dst);
}

LowerStatus lowerGemm(Lowering& l)
{
    const Value& a = *l.in[0];
    const Value& b = *l.in[1];
    if (a.dims.size() != 2 || b.dims.size() != 2 || a.dtype != DType::F32 || b.dtype != DType::F32)
        return lowerError("Gemm needs two F32 matrices, got " + dimsString(a.dims) + " and " + dimsString(b.dims));
    MatMulSpec s;
    s.ta = l.attrs().intOr("trans_a", 0) != 0;
    s.tb = l.attrs().intOr("trans_b", 0) != 0;
    s.alpha = l.attrs().doubleOr("alpha", 1.0);
    s.beta = l.attrs().doubleOr("beta", 1.0);
    s.m = s.ta ? a.dims[1] : a.dims[0];
    s.k = s.ta ? a.dims[0] : a.dims[1];
    s.n = s.tb ? b.dims[0] : b.dims[1];
    if ((s.tb ? b.dims[1] : b.dims[0]) != s.k)
        return lowerError("Gemm: inner dims differ: " + dimsString(a.dims) + " x " + dimsString(b.dims));
    s.lda = a.dims[1];
    s.ldb = b.dims[1];
    const Dims od{s.m, s.n};
    if (l.in.size() > 2 && s.beta != 0.0) {
        const Value& c = *l.in[2];
        auto bc = broadcastDims(od, c.dims);
        if (!bc || *bc != od || c.dtype != DType::F32)
            return lowerError("Gemm: C " + dimsString(c.dims) + " does not broadcast to " + dimsString(od));
        const Dims cs = broadcastStrides(c.dims, od);
        s.cin = c.slot;
        s.cRow = cs[0];
        s.cCol = cs[1];
    }
    l.out = {od, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    return emitMatMul(l, s, a.slot, b.slot, dst);
}

namespace {
struct ConvGeometry {
    Dims in, kernel, out, stride, dilation, padBegin, padEnd;
    std::int64_t groups = 1;
};

Result<ConvGeometry> convGeometry(const Lowering& l, bool transposed)
{
    const Value& x = *l.in[0];
    const Value& w = *l.in[1];
    if (x.dims.size() < 3 || x.dims.size() > 5 || w.dims.size() != x.dims.size() || x.dtype != DType::F32
        || w.dtype != DType::F32)
        return lowerError("needs F32 input [N, C, 1 to 3 spatial dims] and a weight of the same rank on Vulkan, got "
                          + dimsString(x.dims) + " and " + dimsString(w.dims));
    ConvGeometry g;
    const std::size_t sp = x.dims.size() - 2;
    g.in = spatialDims(x.dims);
    g.kernel = spatialDims(w.dims);
    const Attrs& a = l.attrs();
    g.stride = spatialAttr(a, "stride", sp, 1);
    g.dilation = spatialAttr(a, "dilation", sp, 1);
    g.padBegin = spatialAttr(a, "padding", sp, 0);
    g.padEnd = a.has("padding_end") ? spatialAttr(a, "padding_end", sp, 0) : g.padBegin;
    g.groups = a.intOr("groups", 1);
    const Dims outPad = spatialAttr(a, "output_padding", sp, 0);
    if (g.groups < 1 || x.dims[1] % g.groups)
        return lowerError("groups " + std::to_string(g.groups) + " do not divide channels of " + dimsString(x.dims));
    const std::int64_t wantC = transposed ? x.dims[1] : x.dims[1] / g.groups;
    if ((transposed ? w.dims[0] : w.dims[1]) != wantC || (!transposed && w.dims[0] % g.groups))
        return lowerError("input " + dimsString(x.dims) + " does not fit weight " + dimsString(w.dims));
    for (std::size_t i = 0; i < sp; ++i) {
        if (g.stride[i] < 1 || g.dilation[i] < 1)
            return lowerError("stride and dilation must be positive");
        const std::int64_t span = g.dilation[i] * (g.kernel[i] - 1) + 1;
        const std::int64_t o = transposed
            ? (g.in[i] - 1) * g.stride[i] - g.padBegin[i] - g.padEnd[i] + span + outPad[i]
            : (g.in[i] + g.padBegin[i] + g.padEnd[i] - span) / g.stride[i] + 1;
        if (o < 0 || (!transposed && g.in[i] + g.padBegin[i] + g.padEnd[i] < span))
            return lowerError("kernel " + dimsString(g.kernel) + " larger than padded input " + dimsString(x.dims));
        g.out.push_back(o);
    }
    return g;
}

// Conv parameters shared by conv.comp and conv_transpose.comp, from N on.
std::vector<std::int32_t> convParams(const Value& x, std::int64_t oc, const ConvGeometry& g)
{
    std::vector<std::int32_t> p{i32(x.dims[0]), i32(x.dims[1])};
    append(p, dhw(g.in));
    p.push_back(i32(oc));
    append(p, dhw(g.out));
    append(p, dhw(g.kernel));
    append(p, dhw(g.stride));
    append(p, dhw(g.padBegin, 0));
    append(p, dhw(g.dilation));
    p.push_back(i32(g.groups));
    return p;
}
} // namespace

LowerStatus lowerConv(Lowering& l)
{
    auto g = convGeometry(l, false);
    if (!g)
        return lowerError("Conv: " + g.error().message);
    const Value& x = *l.in[0];
    const std::int64_t oc = l.in[1]->dims[0];
    const bool bias = l.in.size() > 2;
    if (bias && (l.in[2]->dtype != DType::F32 || static_cast<std::int64_t>(elementCount(l.in[2]->dims)) != oc))
        return lowerError("Conv: bias must hold " + std::to_string(oc) + " F32 values");
    Dims dims{x.dims[0], oc};
    dims.insert(dims.end(), g->out.begin(), g->out.end());
    l.out = {dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    auto p = convParams(x, oc, *g);
    p.push_back(bias ? 1 : 0);
    const std::uint64_t cols = elementCount(dims) / static_cast<std::uint64_t>(std::max<std::int64_t>(oc, 1));
    const std::uint64_t gx = (cols + 63) / 64, gy = (static_cast<std::uint64_t>(oc / g->groups) + 63) / 64;
    if (gx > kMaxGroups || gy > kMaxGroups || static_cast<std::uint64_t>(g->groups) > kMaxGroups)
        return lowerError("Conv: output " + dimsString(dims) + " exceeds the dispatch limits");
    if (elementCount(dims))
        l.dispatches.push_back({"conv", std::move(p), {x.slot, l.in[1]->slot, bias ? l.in[2]->slot : kNoSlot, dst},
                                {static_cast<std::uint32_t>(gx), static_cast<std::uint32_t>(gy),
                                 static_cast<std::uint32_t>(g->groups)}});
    return true;
}

LowerStatus lowerConvTranspose(Lowering& l)
{
    auto g = convGeometry(l, true);
    if (!g)
        return lowerError("ConvTranspose: " + g.error().message);
    const Value& x = *l.in[0];
    const std::int64_t oc = l.in[1]->dims[1] * g->groups;
    const bool bias = l.in.size() > 2;
    if (bias && (l.in[2]->dtype != DType::F32 || static_cast<std::int64_t>(elementCount(l.in[2]->dims)) != oc))
        return lowerError("ConvTranspose: bias must hold " + std::to_string(oc) + " F32 values");
    Dims dims{x.dims[0], oc};
    dims.insert(dims.end(), g->out.begin(), g->out.end());
    l.out = {dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t n = elementCount(dims);
    std::vector<std::int32_t> p{i32(n)};
    auto rest = convParams(x, oc, *g);
    p.insert(p.end(), rest.begin(), rest.end());
    p.push_back(bias ? 1 : 0);
    if (n)
        l.dispatches.push_back({"conv_transpose", std::move(p), {x.slot, l.in[1]->slot, bias ? l.in[2]->slot : kNoSlot, dst},
                                linearGroups(n)});
    return true;
}

LowerStatus lowerPool(Lowering& l)
{
    const Value& x = *l.in[0];
    if (x.dims.size() < 3 || x.dims.size() > 5 || x.dtype != DType::F32)
        return lowerError("Pool needs an F32 input [N, C, 1 to 3 spatial dims] on Vulkan, got " + dimsString(x.dims));
    const Attrs& a = l.attrs();
    const std::string kind = a.stringOr("kind", "Max");
    if (kind != "Max" && kind != "Avg")
        return lowerError("Pool: unknown kind '" + kind + "'");
    const std::size_t sp = x.dims.size() - 2;
    const Dims k = a.intsOr("kernel_size", {});
    if (k.size() != sp)
        return lowerError("Pool: kernel_size " + dimsString(k) + " does not fit " + dimsString(x.dims));
    const Dims s = spatialAttr(a, "stride", sp, 1), dil = spatialAttr(a, "dilation", sp, 1);
    const Dims pb = spatialAttr(a, "padding", sp, 0);
    const Dims pe = a.has("padding_end") ? spatialAttr(a, "padding_end", sp, 0) : pb;
    const bool ceil = a.getBool("ceil_mode").value_or(a.intOr("ceil_mode", 0) != 0);
    const bool includePad = a.getBool("count_include_pad").value_or(a.intOr("count_include_pad", 0) != 0);
    const Dims inS = spatialDims(x.dims);
    Dims outS;
    for (std::size_t d = 0; d < sp; ++d) {
        if (s[d] < 1 || dil[d] < 1 || k[d] < 1)
            return lowerError("Pool: kernel, stride and dilation must be positive");
        outS.push_back(pooledSize(inS[d], k[d], s[d], dil[d], pb[d], pe[d], ceil));
    }
    Dims dims{x.dims[0], x.dims[1]};
    dims.insert(dims.end(), outS.begin(), outS.end());
    l.out = {dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t n = elementCount(dims);
    std::vector<std::int32_t> p{i32(n)};
    append(p, dhw(inS));
    append(p, dhw(outS));
    append(p, dhw(k));
    append(p, dhw(s));
    append(p, dhw(pb, 0));
    append(p, dhw(dil));
    p.insert(p.end(), {kind == "Max", includePad});
    append(p, dhw(pe, 0));
    if (n)
        l.dispatches.push_back({"pool", std::move(p), {x.slot, dst}, linearGroups(n)});
    return true;
}

LowerStatus lowerGlobalPool(Lowering& l)
{
    const Value& x = *l.in[0];
    if (x.dims.size() < 3 || x.dtype != DType::F32)
        return lowerError("GlobalPool needs an F32 input [N, C, spatial...], got " + dimsString(x.dims));
    const std::string kind = l.attrs().stringOr("kind", "Avg");
    if (kind != "Max" && kind != "Avg")
        return lowerError("GlobalPool: unknown kind '" + kind + "'");
    Dims dims(x.dims.size(), 1);
    dims[0] = x.dims[0];
    dims[1] = x.dims[1];
    l.out = {dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const auto w = static_cast<std::int64_t>(elementCount(spatialDims(x.dims)));
    const std::uint64_t n = elementCount(dims);
    if (n)
        l.dispatches.push_back({"pool", {i32(n), 1, 1, i32(w), 1, 1, 1, 1, 1, i32(w), 1, 1, 1, 0, 0, 0, 1, 1, 1,
                                         kind == "Max", 0, 0, 0, 0},
                                {x.slot, dst}, linearGroups(n)});
    return true;
}

} // namespace costscope::vk
