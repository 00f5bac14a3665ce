// SPDX-License-Identifier: MIT
// Conv (any spatial rank, groups, dilation, strides, asymmetric pads) as im2col + sgemm (many groups: one group a
// thread; depthwise 2-D directly), and ConvTranspose as sgemm + col2im.
#include "cpu/kernel.h"
#include "cpu/sgemm.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace costscope::cpu {

namespace {
struct ConvGeometry {
    std::size_t spatial = 0;
    Dims in, kernel, out, stride, dilation, padBegin, padEnd;
    std::int64_t groups = 1;
    std::int64_t kernelSize() const { return product(kernel); }
    std::int64_t outSize() const { return product(out); }
    std::int64_t inSize() const { return product(in); }
};

Result<ConvGeometry> geometry(const KernelContext& ctx, const HostTensor& x, const HostTensor& w, bool transposed)
{
    if (x.rank() < 3 || w.rank() != x.rank() || x.dtype() != DType::F32 || w.dtype() != DType::F32)
        return Diagnostic::error("needs F32 input [N, C, spatial...] and weight of the same rank, got "
                                 + describe(x) + " and " + describe(w));
    ConvGeometry g;
    g.spatial = x.rank() - 2;
    g.in.assign(x.dims().begin() + 2, x.dims().end());
    g.kernel.assign(w.dims().begin() + 2, w.dims().end());
    const Attrs& a = ctx.attrs();
    g.stride = spatialAttr(a, "stride", g.spatial, 1);
    g.dilation = spatialAttr(a, "dilation", g.spatial, 1);
    g.padBegin = spatialAttr(a, "padding", g.spatial, 0);
    g.padEnd = a.has("padding_end") ? spatialAttr(a, "padding_end", g.spatial, 0) : g.padBegin;
    g.groups = a.intOr("groups", 1);
    const Dims outPad = spatialAttr(a, "output_padding", g.spatial, 0);
    if (g.groups < 1 || x.dim(1) % g.groups)
        return Diagnostic::error("groups " + std::to_string(g.groups) + " do not divide channels of " + describe(x));
    const std::int64_t wantC = transposed ? x.dim(1) : x.dim(1) / g.groups;
    if ((transposed ? w.dim(0) : w.dim(1)) != wantC)
        return Diagnostic::error("input " + describe(x) + " does not fit weight " + describe(w) + " with groups "
                                 + std::to_string(g.groups));
    for (std::size_t i = 0; i < g.spatial; ++i) {
        if (g.stride[i] < 1 || g.dilation[i] < 1)
            return Diagnostic::error("stride and dilation must be positive");
        const std::int64_t span = g.dilation[i] * (g.kernel[i] - 1) + 1;
        const std::int64_t o = transposed
            ? (g.in[i] - 1) * g.stride[i] - g.padBegin[i] - g.padEnd[i] + span + outPad[i]
            : (g.in[i] + g.padBegin[i] + g.padEnd[i] - span) / g.stride[i] + 1;
        if (o < 0 || (!transposed && g.in[i] + g.padBegin[i] + g.padEnd[i] < span))
            return Diagnostic::error("kernel " + dimsString(g.kernel) + " larger than padded input " + describe(x));
        g.out.push_back(o);
    }
    return g;
}

// Walks every (kernel offset, output position) pair of one channel: f(colIndex, inputIndex or -1 when padded).
template <class F>
void forEachTap(const ConvGeometry& g, std::int64_t kernelIndex, F f)
{
    Dims kpos(g.spatial);
    std::int64_t rem = kernelIndex;
    for (std::size_t d = g.spatial; d-- > 0;) {
        kpos[d] = rem % g.kernel[d];
        rem /= g.kernel[d];
    }
    const std::int64_t outN = g.outSize();
    const std::int64_t inner = g.out[g.spatial - 1];
    const std::size_t last = g.spatial - 1;
    for (std::int64_t o = 0; o < outN; o += inner) {
        std::int64_t base = 0, r = o / inner;
        bool inside = true;
        for (std::size_t d = last; d-- > 0;) {
            const std::int64_t od = r % g.out[d];
            r /= g.out[d];
            const std::int64_t id = od * g.stride[d] - g.padBegin[d] + kpos[d] * g.dilation[d];
            inside = inside && id >= 0 && id < g.in[d];
            base = base + id * product(g.in, d + 1);
        }
        for (std::int64_t j = 0; j < inner; ++j) {
            const std::int64_t id = j * g.stride[last] - g.padBegin[last] + kpos[last] * g.dilation[last];
            f(o + j, inside && id >= 0 && id < g.in[last] ? base + id : -1);
        }
    }
}

// One row of the column matrix of a 2-D conv: channel plane `xc`, kernel offset (ky, kx). Whole output rows at
// once: zeros where the tap falls in the padding, a memcpy of the valid span at stride 1, a strided gather
// otherwise. The general loop (forEachTap) decides inside/outside per element through a callback, which ran at
// 2.5 GB/s on VGG's 115 MB column matrices; this writes them at close to the copy bandwidth.
// The output columns [lo, hi) of a 2-D conv whose input column x0 + ox * stride (x0: kernel column kx's offset)
// lies inside the input row.
struct ColumnSpan {
    std::int64_t x0, lo, hi;
};

ColumnSpan validColumns(const ConvGeometry& g, std::int64_t kx)
{
    const std::int64_t inW = g.in[1], outW = g.out[1], sx = g.stride[1], x0 = kx * g.dilation[1] - g.padBegin[1];
    std::int64_t lo = x0 >= 0 ? 0 : (-x0 + sx - 1) / sx;
    std::int64_t hi = x0 >= inW ? 0 : std::min(outW, (inW - 1 - x0) / sx + 1);
    lo = std::min(lo, outW);
    return {x0, lo, std::max(hi, lo)};
}

void im2colRow2d(const ConvGeometry& g, const float* xc, std::int64_t ky, std::int64_t kx, float* dst)
{
    const std::int64_t inH = g.in[0], inW = g.in[1], outH = g.out[0], outW = g.out[1], sx = g.stride[1];
    const auto [x0, lo, hi] = validColumns(g, kx);
    for (std::int64_t oy = 0; oy < outH; ++oy, dst += outW) {
        const std::int64_t iy = oy * g.stride[0] - g.padBegin[0] + ky * g.dilation[0];
        if (iy < 0 || iy >= inH) {
            std::fill(dst, dst + outW, 0.0f);
            continue;
        }
        std::fill(dst, dst + lo, 0.0f);
        const float* src = xc + iy * inW + x0;
        if (sx == 1)
            std::memcpy(dst + lo, src + lo, sizeof(float) * static_cast<std::size_t>(hi - lo));
        else
            for (std::int64_t ox = lo; ox < hi; ++ox)
                dst[ox] = src[ox * sx];
        std::fill(dst + hi, dst + outW, 0.0f);
    }
}

// One channel plane of a depthwise 2-D conv (one input and one output channel per group), computed directly: each
// output row in turn, the taps in ascending order, each a multiply-add over the row, which stays in L1 meanwhile.
// im2col + a one-row product moved each tap's column row twice (im2col, then packing) for 2 flops an element: a
// 64-channel 3x3 layer at 112x112 took about 8 ms on the 2-vCPU VM; this runs near 6 GMAC/s a thread.
void depthwisePlane2d(const ConvGeometry& g, const float* xc, const float* wc, float* oc)
{
    const std::int64_t inH = g.in[0], inW = g.in[1], outH = g.out[0], outW = g.out[1], sx = g.stride[1];
    for (std::int64_t oy = 0; oy < outH; ++oy) {
        float* dst = oc + oy * outW;
        std::fill(dst, dst + outW, 0.0f);
        for (std::int64_t ky = 0; ky < g.kernel[0]; ++ky) {
            const std::int64_t iy = oy * g.stride[0] - g.padBegin[0] + ky * g.dilation[0];
            if (iy < 0 || iy >= inH)
                continue;
            for (std::int64_t kx = 0; kx < g.kernel[1]; ++kx) {
                const float w = wc[ky * g.kernel[1] + kx];
                const auto [x0, lo, hi] = validColumns(g, kx);
                const float* src = xc + iy * inW + x0;
                if (sx == 1)
                    for (std::int64_t ox = lo; ox < hi; ++ox)
                        dst[ox] += w * src[ox];
                else
                    for (std::int64_t ox = lo; ox < hi; ++ox)
                        dst[ox] += w * src[ox * sx];
            }
        }
    }
}

bool isPointwise(const ConvGeometry& g)
{
    for (std::size_t d = 0; d < g.spatial; ++d)
        if (g.kernel[d] != 1 || g.stride[d] != 1 || g.padBegin[d] != 0 || g.padEnd[d] != 0)
            return false;
    return true;
}

// The column matrix of the calling thread, kept between calls and never cleared (im2col writes every element):
// allocating it per call cost a zero fill and, past glibc's mmap threshold (32 MiB at most), fresh pages to fault in
// on every run, which doubled the time of VGG's first layers.
float* columnScratch(std::size_t floats)
{
    static thread_local std::unique_ptr<float[]> data;
    static thread_local std::size_t size = 0;
    if (floats > size) {
        data.reset(new float[floats]);
        size = floats;
    }
    return data.get();
}

KernelStatus addBias(const Inputs& in, HostTensor& out, std::int64_t channels, std::int64_t perChannel)
{
    if (in.size() < 3)
        return ok();
    const HostTensor& bias = *in[2];
    if (bias.dtype() != DType::F32 || static_cast<std::int64_t>(bias.elements()) != channels)
        return fail("bias " + describe(bias) + " must hold " + std::to_string(channels) + " F32 values");
    float* o = out.values<float>().data();
    const float* b = bias.values<float>().data();
    for (std::int64_t r = 0; r < out.dim(0) * channels; ++r)
        for (std::int64_t i = 0; i < perChannel; ++i)
            o[r * perChannel + i] += b[r % channels];
    return ok();
}
} // namespace

KernelStatus runConv(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const HostTensor& w = *in[1];
    auto gr = geometry(ctx, x, w, false);
    if (!gr)
        return fail("Conv: " + gr.error().message);
    const ConvGeometry& g = *gr;
    const std::int64_t batch = x.dim(0), cIn = x.dim(1), cOut = w.dim(0);
    const std::int64_t cg = cIn / g.groups, mg = cOut / g.groups, ks = g.kernelSize(), os = g.outSize();
    Dims dims{batch, cOut};
    dims.insert(dims.end(), g.out.begin(), g.out.end());
    out.reset(dims, DType::F32);
    const float* px = x.values<float>().data();
    const float* pw = w.values<float>().data();
    float* po = out.values<float>().data();
    const bool pointwise = isPointwise(g);
    // One group's column rows (2-D: one kernel tap of one channel each) written on the calling thread.
    const auto im2colRows = [&](const float* xg, float* col, std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r) {
            const float* xc = xg + (r / ks) * g.inSize();
            float* dst = col + r * os;
            if (g.spatial == 2)
                im2colRow2d(g, xc, (r % ks) / g.kernel[1], r % g.kernel[1], dst);
            else
                forEachTap(g, r % ks, [&](std::int64_t o, std::int64_t i) { dst[o] = i < 0 ? 0.0f : xc[i]; });
        }
    };
    // Many groups (depthwise and ShuffleNet-style layers): a whole group's im2col and product on one thread, the
    // groups spread over the pool. Spreading each small group's im2col and product over the pool instead cost a
    // pool dispatch per group (about 4 us each on the 2-vCPU VM: a 32-channel depthwise 3x3 layer at 32x32 took
    // 140 us, and its time swung 2x with the scheduling).
    const bool groupPerThread = g.groups > 1 && batch * g.groups >= 2 * static_cast<std::int64_t>(ctx.pool.size());
    if (groupPerThread) {
        const bool depthwise = cg == 1 && mg == 1 && g.spatial == 2;
        ctx.pool.parallelFor(batch * g.groups, 1, [&](std::int64_t t0, std::int64_t t1) {
            float* col = pointwise || depthwise ? nullptr : columnScratch(static_cast<std::size_t>(cg * ks * os));
            for (std::int64_t t = t0; t < t1; ++t) {
                const std::int64_t n = t / g.groups, grp = t % g.groups;
                const float* xg = px + (n * cIn + grp * cg) * g.inSize();
                if (depthwise) {
                    depthwisePlane2d(g, xg, pw + grp * ks, po + (n * cOut + grp) * os);
                    continue;
                }
                if (!pointwise)
                    im2colRows(xg, col, 0, cg * ks);
                sgemmSerial(false, false, mg, os, cg * ks, 1.0f, pw + grp * mg * cg * ks, cg * ks, pointwise ? xg : col,
                            os, 0.0f, po + (n * cOut + grp * mg) * os, os);
            }
        });
    } else {
        float* col = pointwise ? nullptr : columnScratch(static_cast<std::size_t>(cg * ks * os));
        for (std::int64_t n = 0; n < batch; ++n)
            for (std::int64_t grp = 0; grp < g.groups; ++grp) {
                const float* xg = px + (n * cIn + grp * cg) * g.inSize();
                if (!pointwise)
                    ctx.pool.parallelFor(cg * ks, 1,
                                         [&](std::int64_t r0, std::int64_t r1) { im2colRows(xg, col, r0, r1); });
                sgemm(ctx.pool, false, false, mg, os, cg * ks, 1.0f, pw + grp * mg * cg * ks, cg * ks,
                      pointwise ? xg : col, os, 0.0f, po + (n * cOut + grp * mg) * os, os);
            }
    }
    if (auto s = addBias(in, out, cOut, os); !s)
        return fail("Conv: " + s.error().message);
    return ok();
}

KernelStatus runConvTranspose(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const HostTensor& w = *in[1];
    auto gr = geometry(ctx, x, w, true);
    if (!gr)
        return fail("ConvTranspose: " + gr.error().message);
    // Swap the roles of input and output: the transposed conv's output is the forward conv's input.
    ConvGeometry g = *gr;
    std::swap(g.in, g.out);
    const std::int64_t batch = x.dim(0), cIn = x.dim(1), mg = w.dim(1), cOut = mg * g.groups;
    const std::int64_t cg = cIn / g.groups, ks = g.kernelSize(), inN = g.outSize(), outN = g.inSize();
    Dims dims{batch, cOut};
    dims.insert(dims.end(), g.in.begin(), g.in.end());
    out.reset(dims, DType::F32);
    std::memset(out.bytes(), 0, out.byteSize());
    const float* px = x.values<float>().data();
    const float* pw = w.values<float>().data();
    float* po = out.values<float>().data();
    std::vector<float> col(static_cast<std::size_t>(mg * ks * inN));
    for (std::int64_t n = 0; n < batch; ++n)
        for (std::int64_t grp = 0; grp < g.groups; ++grp) {
            // col[mg*ks, inN] = W_g^T [mg*ks, cg] x X_g [cg, inN]
            sgemm(ctx.pool, true, false, mg * ks, inN, cg, 1.0f, pw + grp * cg * mg * ks, mg * ks,
                  px + (n * cIn + grp * cg) * inN, inN, 0.0f, col.data(), inN);
            ctx.pool.parallelFor(mg, 1, [&](std::int64_t c0, std::int64_t c1) {
                for (std::int64_t c = c0; c < c1; ++c) {
                    float* dst = po + (n * cOut + grp * mg + c) * outN;
                    for (std::int64_t k = 0; k < ks; ++k) {
                        const float* src = col.data() + (c * ks + k) * inN;
                        forEachTap(g, k, [&](std::int64_t o, std::int64_t i) {
                            if (i >= 0)
                                dst[i] += src[o];
                        });
                    }
                }
            });
        }
    if (auto s = addBias(in, out, cOut, outN); !s)
        return fail("ConvTranspose: " + s.error().message);
    return ok();
}

} // namespace costscope::cpu
