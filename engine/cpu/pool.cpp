// SPDX-License-Identifier: MIT
// Pool (Max/Avg over any spatial rank, with dilation, asymmetric pads, ceil_mode and count_include_pad) and
// GlobalPool.
#include "cpu/kernel.h"

#include <algorithm>
#include <limits>

namespace costscope::cpu {

namespace {
// The 2-D undilated case that nearly every CNN uses, as direct loops over each window's clipped rows and columns:
// the general loop below decomposes every tap's index with divisions (about 8 ns a tap). Same order of
// accumulation, so the results are bit-identical to the general loop.
struct Pool2d {
    std::int64_t h, w, oh, ow, kh, kw, sh, sw, ph, pw, peh, pew;
    bool isMax, includePad;
};

void pool2d(KernelContext& ctx, const float* src, float* dst, std::int64_t planes, const Pool2d& p)
{
    ctx.pool.parallelFor(planes, 1, [&](std::int64_t c0, std::int64_t c1) {
        for (std::int64_t c = c0; c < c1; ++c) {
            const float* plane = src + c * p.h * p.w;
            float* out = dst + c * p.oh * p.ow;
            for (std::int64_t oy = 0; oy < p.oh; ++oy) {
                const std::int64_t y0 = oy * p.sh - p.ph;
                const std::int64_t ys = std::max<std::int64_t>(y0, 0), ye = std::min(y0 + p.kh, p.h);
                const std::int64_t padRows = std::clamp<std::int64_t>(p.h + p.peh - y0, 0, p.kh);
                for (std::int64_t ox = 0; ox < p.ow; ++ox) {
                    const std::int64_t x0 = ox * p.sw - p.pw;
                    const std::int64_t xs = std::max<std::int64_t>(x0, 0), xe = std::min(x0 + p.kw, p.w);
                    if (p.isMax) {
                        float m = -std::numeric_limits<float>::infinity();
                        for (std::int64_t y = ys; y < ye; ++y)
                            for (std::int64_t xx = xs; xx < xe; ++xx) {
                                const float v = plane[y * p.w + xx];
                                m = m < v ? v : m; // as std::max(acc, v): a NaN tap is skipped
                            }
                        out[oy * p.ow + ox] = m;
                        continue;
                    }
                    double acc = 0.0;
                    for (std::int64_t y = ys; y < ye; ++y)
                        for (std::int64_t xx = xs; xx < xe; ++xx)
                            acc += plane[y * p.w + xx];
                    const std::int64_t inside = std::max<std::int64_t>(ye - ys, 0) * std::max<std::int64_t>(xe - xs, 0);
                    const std::int64_t counted =
                        p.includePad ? padRows * std::clamp<std::int64_t>(p.w + p.pew - x0, 0, p.kw) : inside;
                    out[oy * p.ow + ox] = static_cast<float>(counted ? acc / double(counted) : 0.0);
                }
            }
        }
    });
}
} // namespace

KernelStatus runPool(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (x.rank() < 3 || x.dtype() != DType::F32)
        return fail("Pool needs an F32 input [N, C, spatial...], got " + describe(x));
    const Attrs& a = ctx.attrs();
    const std::string kind = a.stringOr("kind", "Max");
    if (kind != "Max" && kind != "Avg")
        return fail("Pool: unknown kind '" + kind + "'");
    const bool isMax = kind == "Max";
    const std::size_t sp = x.rank() - 2;
    const Dims k = a.intsOr("kernel_size", {});
    if (k.size() != sp)
        return fail("Pool: kernel_size " + dimsString(k) + " does not fit " + describe(x));
    const Dims s = spatialAttr(a, "stride", sp, 1), dil = spatialAttr(a, "dilation", sp, 1);
    const Dims pb = spatialAttr(a, "padding", sp, 0);
    const Dims pe = a.has("padding_end") ? spatialAttr(a, "padding_end", sp, 0) : pb;
    const bool ceil = a.getBool("ceil_mode").value_or(a.intOr("ceil_mode", 0) != 0);
    const bool includePad = a.getBool("count_include_pad").value_or(a.intOr("count_include_pad", 0) != 0);
    Dims inS(x.dims().begin() + 2, x.dims().end()), outS;
    for (std::size_t d = 0; d < sp; ++d) {
        if (s[d] < 1 || dil[d] < 1 || k[d] < 1)
            return fail("Pool: kernel, stride and dilation must be positive");
        outS.push_back(pooledSize(inS[d], k[d], s[d], dil[d], pb[d], pe[d], ceil));
    }
    Dims dims{x.dim(0), x.dim(1)};
    dims.insert(dims.end(), outS.begin(), outS.end());
    out.reset(dims, DType::F32);
    const std::int64_t inN = product(inS), outN = product(outS), kN = product(k);
    const Dims inStr = contiguousStrides(inS);
    const float* src = x.values<float>().data();
    float* dst = out.values<float>().data();
    if (sp == 2 && dil[0] == 1 && dil[1] == 1) {
        pool2d(ctx, src, dst, x.dim(0) * x.dim(1), {inS[0], inS[1], outS[0], outS[1], k[0], k[1], s[0], s[1], pb[0],
                                                   pb[1], pe[0], pe[1], isMax, includePad});
        return ok();
    }
    ctx.pool.parallelFor(x.dim(0) * x.dim(1), 1, [&](std::int64_t c0, std::int64_t c1) {
        Dims pos(sp);
        for (std::int64_t c = c0; c < c1; ++c)
            for (std::int64_t o = 0; o < outN; ++o) {
                std::int64_t rem = o;
                for (std::size_t d = sp; d-- > 0;) {
                    pos[d] = (rem % outS[d]) * s[d] - pb[d];
                    rem /= outS[d];
                }
                double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
                std::int64_t counted = 0;
                for (std::int64_t t = 0; t < kN; ++t) {
                    std::int64_t tr = t, off = 0;
                    bool inside = true, inPadded = true;
                    for (std::size_t d = sp; d-- > 0;) {
                        const std::int64_t id = pos[d] + (tr % k[d]) * dil[d];
                        tr /= k[d];
                        inside = inside && id >= 0 && id < inS[d];
                        inPadded = inPadded && id < inS[d] + pe[d];
                        off += id * inStr[d];
                    }
                    if (inside) {
                        const double v = src[c * inN + off];
                        acc = isMax ? std::max(acc, v) : acc + v;
                    }
                    counted += (inside || (includePad && inPadded)) ? 1 : 0;
                }
                dst[c * outN + o] = static_cast<float>(isMax ? acc : (counted ? acc / double(counted) : 0.0));
            }
    });
    return ok();
}

KernelStatus runGlobalPool(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (x.rank() < 3 || x.dtype() != DType::F32)
        return fail("GlobalPool needs an F32 input [N, C, spatial...], got " + describe(x));
    const std::string kind = ctx.attrs().stringOr("kind", "Avg");
    if (kind != "Max" && kind != "Avg")
        return fail("GlobalPool: unknown kind '" + kind + "'");
    Dims dims(x.rank(), 1);
    dims[0] = x.dim(0);
    dims[1] = x.dim(1);
    out.reset(dims, DType::F32);
    const std::int64_t n = product(x.dims(), 2);
    const bool isMax = kind == "Max";
    const float* src = x.values<float>().data();
    float* dst = out.values<float>().data();
    ctx.pool.parallelFor(x.dim(0) * x.dim(1), 1, [&](std::int64_t c0, std::int64_t c1) {
        for (std::int64_t c = c0; c < c1; ++c) {
            const float* v = src + c * n;
            if (isMax) {
                float m = -std::numeric_limits<float>::infinity();
                for (std::int64_t i = 0; i < n; ++i)
                    m = m < v[i] ? v[i] : m;
                dst[c] = m;
                continue;
            }
            double acc = 0.0;
            for (std::int64_t i = 0; i < n; ++i)
                acc += v[i];
            dst[c] = static_cast<float>(acc / double(std::max<std::int64_t>(n, 1)));
        }
    });
    return ok();
}

} // namespace costscope::cpu
