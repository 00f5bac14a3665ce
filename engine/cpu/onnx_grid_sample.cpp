// SPDX-License-Identifier: MIT
// ONNX GridSample (opsets 16 and 20: 2-D and N-D): X [N, C, D1..Dk] sampled at grid [N, O1..Om, k] (x first, in
// [-1, 1]) by nearest, (bi)linear or (bi)cubic interpolation, with zeros, border or reflection padding, as ONNX's
// reference computes it. Interpolation is separable: per output point, each dim gives taps (index, weight) that the
// padding maps into the image or drops (zeros). Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cmath>

namespace costscope::cpu {

namespace {
enum class Padding { Zeros, Border, Reflection };

// Reflects x into [lo, hi] by the near border, as many times as it takes.
double reflect(double x, double lo, double hi)
{
    const double range = hi - lo;
    if (range <= 0)
        return lo;
    if (x < lo) {
        const double dx = lo - x;
        const auto n = static_cast<std::int64_t>(dx / range);
        const double r = dx - static_cast<double>(n) * range;
        return n % 2 == 0 ? lo + r : hi - r;
    }
    if (x > hi) {
        const double dx = x - hi;
        const auto n = static_cast<std::int64_t>(dx / range);
        const double r = dx - static_cast<double>(n) * range;
        return n % 2 == 0 ? hi - r : lo + r;
    }
    return x;
}

struct Tap {
    std::int64_t index;
    double weight;
};

struct AxisSampler {
    std::int64_t size;
    double lo, hi; // the borders reflection uses
    Padding padding;

    // The pixel index i reads, or -1 where zeros padding gives 0.
    std::int64_t fetch(std::int64_t i) const
    {
        if (padding == Padding::Zeros)
            return i >= 0 && i < size ? i : -1;
        if (padding == Padding::Border)
            return std::clamp<std::int64_t>(i, 0, size - 1);
        return std::clamp<std::int64_t>(static_cast<std::int64_t>(reflect(static_cast<double>(i), lo, hi)), 0,
                                        size - 1);
    }
};

void cubicCoefficients(double r, double c[4])
{
    const double a = -0.75, x = std::abs(r);
    c[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
    c[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
    c[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
}

std::vector<Tap> axisTaps(const AxisSampler& s, double normalized, bool alignCorners, const std::string& mode)
{
    const auto len = static_cast<double>(s.size);
    double x = alignCorners ? (normalized + 1) / 2 * (len - 1) : ((normalized + 1) * len - 1) / 2;
    if (mode == "nearest")
        x = std::nearbyint(x);
    if (x < s.lo || x > s.hi) {
        if (s.padding == Padding::Border)
            x = std::clamp(x, 0.0, len - 1);
        else if (s.padding == Padding::Reflection)
            x = reflect(x, s.lo, s.hi);
    }
    std::vector<Tap> taps;
    auto add = [&](std::int64_t i, double w) {
        if (const std::int64_t at = s.fetch(i); at >= 0 && w != 0)
            taps.push_back({at, w});
    };
    if (mode == "nearest") {
        add(static_cast<std::int64_t>(x), 1);
        return taps;
    }
    const double floor = std::floor(x), r = x - floor;
    const auto x0 = static_cast<std::int64_t>(floor);
    if (mode == "linear" || mode == "bilinear") {
        add(x0, 1 - r);
        add(x0 + 1, r);
        return taps;
    }
    double c[4];
    cubicCoefficients(r, c);
    for (int k = 0; k < 4; ++k)
        add(x0 - 1 + k, c[k]);
    return taps;
}
} // namespace

KernelStatus runGridSample(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 2 || in[0]->rank() < 3 || in[1]->rank() != in[0]->rank()
        || in[1]->dim(in[1]->rank() - 1) != static_cast<std::int64_t>(in[0]->rank()) - 2
        || in[1]->dim(0) != in[0]->dim(0))
        return fail("GridSample needs X [N, C, D...] and a grid [N, O..., spatial dims]");
    const HostTensor& x = *in[0];
    const std::string mode = ctx.attrs().stringOr("mode", "linear");
    const std::string paddingName = ctx.attrs().stringOr("padding_mode", "zeros");
    const bool alignCorners = ctx.attrs().intOr("align_corners", 0) != 0;
    if (mode != "nearest" && mode != "linear" && mode != "bilinear" && mode != "cubic" && mode != "bicubic")
        return fail("GridSample: unknown mode '" + mode + "'");
    const Padding padding = paddingName == "border"       ? Padding::Border
                            : paddingName == "reflection" ? Padding::Reflection
                                                          : Padding::Zeros;
    const std::size_t k = x.rank() - 2;
    std::vector<AxisSampler> axes;
    for (std::size_t d = 0; d < k; ++d) {
        const auto len = static_cast<double>(x.dim(d + 2));
        axes.push_back({x.dim(d + 2), alignCorners ? 0.0 : -0.5, alignCorners ? len - 1 : len - 0.5, padding});
    }
    const std::int64_t n = x.dim(0), c = x.dim(1), image = product(x.dims(), 2);
    const std::int64_t points = product(in[1]->dims(), 1, in[1]->rank() - 1);
    Dims dims = {n, c};
    dims.insert(dims.end(), in[1]->dims().begin() + 1, in[1]->dims().end() - 1);
    const HostTensor wx = toF64(ctx.pool, x), grid = toF64(ctx.pool, *in[1]);
    const Dims strides = contiguousStrides(Dims(x.dims().begin() + 2, x.dims().end()));
    HostTensor result(dims, DType::F64);
    std::vector<std::vector<Tap>> taps(k);
    for (std::int64_t b = 0; b < n; ++b)
        for (std::int64_t p = 0; p < points; ++p) {
            const double* g = grid.values<double>().data() + (b * points + p) * static_cast<std::int64_t>(k);
            for (std::size_t d = 0; d < k; ++d) // the grid gives x (the last dim) first
                taps[d] = axisTaps(axes[d], g[k - 1 - d], alignCorners, mode == "bicubic" ? "cubic" : mode);
            for (std::int64_t ch = 0; ch < c; ++ch) {
                const double* src = wx.values<double>().data() + (b * c + ch) * image;
                double sum = 0;
                std::vector<std::size_t> pick(k, 0);
                bool empty = false;
                for (const auto& t : taps)
                    empty = empty || t.empty();
                while (!empty) {
                    double w = 1;
                    std::int64_t offset = 0;
                    for (std::size_t d = 0; d < k; ++d) {
                        w *= taps[d][pick[d]].weight;
                        offset += taps[d][pick[d]].index * strides[d];
                    }
                    sum += w * src[offset];
                    std::size_t d = k;
                    while (d > 0 && ++pick[d - 1] == taps[d - 1].size())
                        pick[--d] = 0;
                    if (d == 0)
                        break;
                }
                result.values<double>()[static_cast<std::size_t>((b * c + ch) * points + p)] = sum;
            }
        }
    return fromWide(ctx, result, x.dtype(), out);
}

} // namespace costscope::cpu
