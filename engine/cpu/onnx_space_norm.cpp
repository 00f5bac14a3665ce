// SPDX-License-Identifier: MIT
// ONNX SpaceToDepth and DepthToSpace (DCR and CRD) on NCHW tensors of any dtype, LpNormalization (p 1 or 2),
// Swish (x * sigmoid(alpha x)) and Det (LU with partial pivoting) in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cmath>
#include <cstring>

namespace costscope::cpu {

namespace {
// Moves blocks between depth and space: `toDepth` for SpaceToDepth, else DepthToSpace in DCR or CRD order.
KernelStatus moveBlocks(KernelContext& ctx, const Inputs& in, HostTensor& out, bool toDepth)
{
    const HostTensor& x = *in[0];
    const std::int64_t b = ctx.attrs().intOr("blocksize", 0);
    const bool crd = ctx.attrs().stringOr("mode", "DCR") == "CRD";
    if (x.rank() != 4 || b <= 0)
        return fail("SpaceToDepth/DepthToSpace need an NCHW input and a positive blocksize, got " + describe(x));
    const std::int64_t n = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3);
    if (toDepth ? (h % b || w % b) : c % (b * b))
        return fail("blocksize " + std::to_string(b) + " does not divide " + describe(x));
    // The space side: channels sc, height sh, width sw; the depth side holds sc*b*b channels of sh/b x sw/b.
    const std::int64_t sc = toDepth ? c : c / (b * b), sh = toDepth ? h : h * b, sw = toDepth ? w : w * b;
    out.reset(toDepth ? Dims{n, c * b * b, h / b, w / b} : Dims{n, sc, sh, sw}, x.dtype());
    const std::size_t es = x.elementSize();
    for (std::int64_t in_ = 0; in_ < n; ++in_)
        for (std::int64_t ch = 0; ch < sc; ++ch)
            for (std::int64_t y = 0; y < sh; ++y)
                for (std::int64_t xx = 0; xx < sw; ++xx) {
                    const std::int64_t by = y % b, bx = xx % b;
                    const std::int64_t dc = crd ? ch * b * b + by * b + bx : (by * b + bx) * sc + ch;
                    const std::int64_t space = ((in_ * sc + ch) * sh + y) * sw + xx;
                    const std::int64_t depth = ((in_ * sc * b * b + dc) * (sh / b) + y / b) * (sw / b) + xx / b;
                    const std::int64_t from = toDepth ? space : depth, to = toDepth ? depth : space;
                    std::memcpy(out.bytes() + static_cast<std::size_t>(to) * es,
                                x.bytes() + static_cast<std::size_t>(from) * es, es);
                }
    return ok();
}
} // namespace

KernelStatus runSpaceToDepth(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return moveBlocks(ctx, in, out, true);
}

KernelStatus runDepthToSpace(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return moveBlocks(ctx, in, out, false);
}

KernelStatus runLpNormalization(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto axis = normalizeAxis(ctx.attrs().intOr("axis", -1), x.rank());
    const std::int64_t p = ctx.attrs().intOr("p", 2);
    if (!axis || (p != 1 && p != 2))
        return fail("LpNormalization: axis out of range or p not 1 or 2 for " + describe(x));
    const auto a = static_cast<std::size_t>(*axis);
    const std::int64_t outer = product(x.dims(), 0, a), n = x.dim(a), inner = product(x.dims(), a + 1);
    HostTensor v = toF64(ctx.pool, x);
    double* d = v.values<double>().data();
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
            double norm = 0;
            for (std::int64_t j = 0; j < n; ++j) {
                const double e = d[(o * n + j) * inner + i];
                norm += p == 1 ? std::abs(e) : e * e;
            }
            norm = p == 1 ? norm : std::sqrt(norm);
            for (std::int64_t j = 0; j < n; ++j)
                d[(o * n + j) * inner + i] = norm != 0 ? d[(o * n + j) * inner + i] / norm : 0;
        }
    return fromWide(ctx, v, x.dtype(), out);
}

KernelStatus runSwish(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const double alpha = ctx.attrs().doubleOr("alpha", 1.0);
    HostTensor v = toF64(ctx.pool, *in[0]);
    for (double& e : v.values<double>())
        e = e / (1 + std::exp(-alpha * e));
    return fromWide(ctx, v, in[0]->dtype(), out);
}

KernelStatus runDet(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const std::size_t rank = x.rank();
    if (rank < 2 || x.dim(rank - 1) != x.dim(rank - 2))
        return fail("Det needs square matrices [..., M, M], got " + describe(x));
    const std::int64_t m = x.dim(rank - 1), count = product(x.dims(), 0, rank - 2);
    const HostTensor wide = toF64(ctx.pool, x);
    HostTensor result(Dims(x.dims().begin(), x.dims().end() - 2), DType::F64);
    for (std::int64_t b = 0; b < count; ++b) {
        std::vector<double> a(wide.values<double>().begin() + b * m * m,
                              wide.values<double>().begin() + (b + 1) * m * m);
        double det = 1;
        for (std::int64_t c = 0; c < m && det != 0; ++c) {
            std::int64_t pivot = c;
            for (std::int64_t r = c + 1; r < m; ++r)
                if (std::abs(a[static_cast<std::size_t>(r * m + c)])
                    > std::abs(a[static_cast<std::size_t>(pivot * m + c)]))
                    pivot = r;
            if (pivot != c) {
                for (std::int64_t k = 0; k < m; ++k)
                    std::swap(a[static_cast<std::size_t>(c * m + k)], a[static_cast<std::size_t>(pivot * m + k)]);
                det = -det;
            }
            const double d = a[static_cast<std::size_t>(c * m + c)];
            det *= d;
            for (std::int64_t r = c + 1; r < m && d != 0; ++r) {
                const double f = a[static_cast<std::size_t>(r * m + c)] / d;
                for (std::int64_t k = c; k < m; ++k)
                    a[static_cast<std::size_t>(r * m + k)] -= f * a[static_cast<std::size_t>(c * m + k)];
            }
        }
        result.values<double>()[static_cast<std::size_t>(b)] = det;
    }
    return fromWide(ctx, result, x.dtype(), out);
}

} // namespace costscope::cpu
