// SPDX-License-Identifier: MIT
// ONNX Resize (opsets 11 to 19): nearest, linear and cubic interpolation, every coordinate transformation mode,
// antialias, axes and keep_aspect_ratio_policy, as ONNX's reference implementation computes them. Interpolation is
// separable: each output index of each axis reads a few input indices with weights (edge values past the border),
// and an output element is the sum over the product of its axes' taps. Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <algorithm>
#include <cmath>

namespace costscope::cpu {

namespace {
struct Tap {
    std::int64_t index;
    double weight;
};

struct ResizeSettings {
    std::string mode, transform, nearestMode;
    double cubicA = -0.75, extrapolation = 0;
    bool excludeOutside = false, antialias = false;
};

// Weights of the n input pixels around x_ori, from the left one (x_ori = left + ratio, ratio in (0, 1]).
std::vector<double> coefficients(const ResizeSettings& s, double ratio, double scale)
{
    if (s.mode == "nearest") {
        if (ratio == 1.0)
            return {0, 1};
        const std::string& m = s.nearestMode;
        const bool right =
            m == "ceil" || (m == "round_prefer_ceil" && ratio >= 0.5) || (m == "round_prefer_floor" && ratio > 0.5);
        return {right ? 0.0 : 1.0, right ? 1.0 : 0.0};
    }
    const bool cubic = s.mode == "cubic";
    if (!s.antialias) {
        if (!cubic)
            return {1 - ratio, ratio};
        const double a = s.cubicA, r = ratio, q = 1 - ratio;
        return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
                ((a + 2) * q - (a + 3)) * q * q + 1, ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a};
    }
    scale = std::min(scale, 1.0);
    const double support = cubic ? 2.0 : 1.0;
    const auto start = static_cast<std::int64_t>(std::floor(-support / scale) + 1);
    std::vector<double> c;
    double sum = 0;
    for (std::int64_t i = start; i < 2 - start; ++i) {
        const double x = std::abs(scale * (static_cast<double>(i) - ratio));
        double w = 0;
        if (!cubic)
            w = std::clamp(1 - x, 0.0, 1.0);
        else if (x <= 1)
            w = (s.cubicA + 2) * x * x * x - (s.cubicA + 3) * x * x + 1;
        else if (x < 2)
            w = s.cubicA * x * x * x - 5 * s.cubicA * x * x + 8 * s.cubicA * x - 4 * s.cubicA;
        c.push_back(w);
        sum += w;
    }
    for (double& w : c)
        w /= sum;
    return c;
}

// The input coordinate of output index x, or nullopt where tf_crop_and_resize extrapolates.
std::optional<double> sourceCoordinate(const ResizeSettings& s, double x, double scale, std::int64_t in,
                                       std::int64_t out, double roiStart, double roiEnd)
{
    const double inW = static_cast<double>(in), outW = scale * inW;
    const std::string& t = s.transform;
    if (t == "align_corners")
        return outW == 1 ? 0.0 : x * (inW - 1) / (outW - 1);
    if (t == "asymmetric")
        return x / scale;
    if (t == "tf_crop_and_resize") {
        double v = outW == 1 ? (roiEnd - roiStart) * (inW - 1) / 2 : x * (roiEnd - roiStart) * (inW - 1) / (outW - 1);
        v += roiStart * (inW - 1);
        if (v < 0 || v > inW - 1)
            return std::nullopt;
        return v;
    }
    if (t == "pytorch_half_pixel")
        return outW == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    if (t == "half_pixel_symmetric") {
        const double adjustment = static_cast<double>(out) / outW, center = inW / 2;
        return center * (1 - adjustment) + (x + 0.5) / scale - 0.5;
    }
    return (x + 0.5) / scale - 0.5; // half_pixel
}

// The taps of output index x along one axis; empty where the output is the extrapolation value.
std::vector<Tap> taps(const ResizeSettings& s, std::int64_t x, double scale, std::int64_t in, std::int64_t out,
                      double roiStart, double roiEnd)
{
    auto origin = sourceCoordinate(s, static_cast<double>(x), scale, in, out, roiStart, roiEnd);
    if (!origin)
        return {};
    auto left = static_cast<std::int64_t>(std::floor(*origin));
    double ratio = *origin - static_cast<double>(left);
    if (ratio == 0) {
        ratio = 1;
        --left;
    }
    std::vector<double> c = coefficients(s, ratio, scale);
    const auto n = static_cast<std::int64_t>(c.size());
    const std::int64_t first = left - n / 2 + 1;
    if (s.excludeOutside) {
        double sum = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            if (first + i < 0 || first + i >= in)
                c[static_cast<std::size_t>(i)] = 0;
            sum += c[static_cast<std::size_t>(i)];
        }
        for (double& w : c)
            w = sum != 0 ? w / sum : 0;
    }
    std::vector<Tap> result;
    for (std::int64_t i = 0; i < n; ++i)
        if (c[static_cast<std::size_t>(i)] != 0)
            result.push_back({std::clamp<std::int64_t>(first + i, 0, in - 1), c[static_cast<std::size_t>(i)]});
    return result;
}

std::vector<double> doubles(ThreadPool& pool, const HostTensor* t)
{
    if (!t || t->elements() == 0)
        return {};
    const HostTensor wide = toF64(pool, *t);
    auto v = wide.values<double>();
    return {v.begin(), v.end()};
}

// Output sizes and per-axis scales from the scales or sizes input, the axes and the aspect-ratio policy.
KernelStatus outputGeometry(KernelContext& ctx, const Inputs& in, Dims& outDims, std::vector<double>& scales)
{
    const HostTensor& x = *in[0];
    const std::size_t rank = x.rank();
    std::vector<std::int64_t> axes(rank);
    for (std::size_t d = 0; d < rank; ++d)
        axes[d] = static_cast<std::int64_t>(d);
    if (auto given = ctx.attrs().getInts("axes")) {
        axes.clear();
        for (std::int64_t a : *given) {
            auto n = normalizeAxis(a, rank);
            if (!n)
                return fail("Resize: axis " + std::to_string(a) + " is out of range for " + describe(x));
            axes.push_back(*n);
        }
    }
    const std::vector<double> scaleValues = doubles(ctx.pool, onnxInput(ctx, in, 2));
    const HostTensor* sizesTensor = onnxInput(ctx, in, 3);
    outDims = x.dims();
    scales.assign(rank, 1.0);
    if (!scaleValues.empty()) {
        if (scaleValues.size() != axes.size())
            return fail("Resize: " + std::to_string(scaleValues.size()) + " scales for " + std::to_string(axes.size())
                        + " axes");
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const auto d = static_cast<std::size_t>(axes[i]);
            if (!(scaleValues[i] > 0))
                return fail("Resize: scales must be positive");
            scales[d] = scaleValues[i];
            outDims[d] = static_cast<std::int64_t>(std::floor(static_cast<double>(x.dim(d)) * scaleValues[i]));
        }
        return ok();
    }
    if (!sizesTensor || sizesTensor->elements() != axes.size())
        return fail("Resize needs scales or sizes for its " + std::to_string(axes.size()) + " axes");
    const std::string policy = ctx.attrs().stringOr("keep_aspect_ratio_policy", "stretch");
    std::vector<double> ratios;
    for (std::size_t i = 0; i < axes.size(); ++i)
        ratios.push_back(static_cast<double>(sizesTensor->valueAsInt(i))
                         / static_cast<double>(x.dim(static_cast<std::size_t>(axes[i]))));
    if (policy != "stretch" && !ratios.empty()) {
        const double r = policy == "not_larger" ? *std::min_element(ratios.begin(), ratios.end())
                                                : *std::max_element(ratios.begin(), ratios.end());
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const auto d = static_cast<std::size_t>(axes[i]);
            scales[d] = r;
            outDims[d] = static_cast<std::int64_t>(r * static_cast<double>(x.dim(d)) + 0.5);
        }
        return ok();
    }
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const auto d = static_cast<std::size_t>(axes[i]);
        scales[d] = ratios[i];
        outDims[d] = sizesTensor->valueAsInt(i);
    }
    return ok();
}
} // namespace

KernelStatus runResize(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const Attrs& a = ctx.attrs();
    ResizeSettings s{a.stringOr("mode", "nearest"),
                     a.stringOr("coordinate_transformation_mode", "half_pixel"),
                     a.stringOr("nearest_mode", "round_prefer_floor"),
                     a.doubleOr("cubic_coeff_a", -0.75),
                     a.doubleOr("extrapolation_value", 0.0),
                     a.intOr("exclude_outside", 0) != 0,
                     a.intOr("antialias", 0) != 0};
    if (s.mode != "nearest" && s.mode != "linear" && s.mode != "cubic")
        return fail("Resize: unknown mode '" + s.mode + "'");
    Dims outDims;
    std::vector<double> scales;
    if (auto r = outputGeometry(ctx, in, outDims, scales); !r)
        return r;
    const std::size_t rank = x.rank();
    std::vector<double> roi(2 * rank, 0.0);
    std::fill(roi.begin() + static_cast<std::ptrdiff_t>(rank), roi.end(), 1.0);
    if (s.transform == "tf_crop_and_resize") {
        const std::vector<double> given = doubles(ctx.pool, onnxInput(ctx, in, 1));
        const auto axes = a.getInts("axes");
        const std::size_t n = given.size() / 2;
        for (std::size_t i = 0; i < n; ++i) {
            const auto d = axes ? static_cast<std::size_t>(*normalizeAxis((*axes)[i], rank)) : i;
            roi[d] = given[i];
            roi[rank + d] = given[n + i];
        }
    }
    // Per axis and output index: the taps, computed once.
    std::vector<std::vector<std::vector<Tap>>> axisTaps(rank);
    for (std::size_t d = 0; d < rank; ++d)
        for (std::int64_t o = 0; o < outDims[d]; ++o)
            axisTaps[d].push_back(taps(s, o, scales[d], x.dim(d), outDims[d], roi[d], roi[rank + d]));
    const HostTensor wide = toF64(ctx.pool, x);
    const double* src = wide.values<double>().data();
    const Dims strides = contiguousStrides(x.dims());
    HostTensor result(outDims, DType::F64);
    double* dst = result.values<double>().data();
    std::vector<std::int64_t> idx(rank, 0);
    for (std::uint64_t e = 0; e < result.elements(); ++e) {
        // Sum over the product of the axes' taps (an odometer over the tap positions).
        std::vector<std::size_t> pick(rank, 0);
        bool extrapolate = false;
        for (std::size_t d = 0; d < rank; ++d)
            extrapolate = extrapolate || axisTaps[d][static_cast<std::size_t>(idx[d])].empty();
        double sum = 0;
        while (!extrapolate) {
            double w = 1;
            std::int64_t offset = 0;
            for (std::size_t d = 0; d < rank; ++d) {
                const Tap& t = axisTaps[d][static_cast<std::size_t>(idx[d])][pick[d]];
                w *= t.weight;
                offset += t.index * strides[d];
            }
            sum += w * src[offset];
            std::size_t d = rank;
            while (d > 0 && ++pick[d - 1] == axisTaps[d - 1][static_cast<std::size_t>(idx[d - 1])].size())
                pick[--d] = 0;
            if (d == 0)
                break;
        }
        dst[e] = extrapolate ? s.extrapolation : sum;
        for (std::size_t d = rank; d > 0 && ++idx[d - 1] == outDims[d - 1];)
            idx[--d] = 0;
    }
    return fromWide(ctx, result, x.dtype(), out);
}

} // namespace costscope::cpu
