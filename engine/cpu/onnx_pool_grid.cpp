// SPDX-License-Identifier: MIT
// ONNX LpPool (every auto_pad, pads, strides, dilations, ceil_mode; padding adds nothing to the sums), AffineGrid
// (opset 20, 2-D and 3-D) and DynamicQuantizeLinear (its three outputs, a node each). Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cmath>

namespace costscope::cpu {

KernelStatus runLpPool(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const Attrs& a = ctx.attrs();
    const auto kernel = a.getInts("kernel_shape");
    if (x.rank() < 3 || !kernel || kernel->size() != x.rank() - 2)
        return fail("LpPool needs an input [N, C, D...] and a kernel_shape per spatial dim, got " + describe(x));
    const std::size_t k = kernel->size();
    const Dims strides = a.getInts("strides").value_or(Dims(k, 1)), dil = a.getInts("dilations").value_or(Dims(k, 1));
    Dims pads = a.getInts("pads").value_or(Dims(2 * k, 0));
    const std::string autoPad = a.stringOr("auto_pad", "NOTSET");
    const bool ceil = a.intOr("ceil_mode", 0) != 0;
    const double p = a.doubleOr("p", 2.0);
    if (strides.size() != k || dil.size() != k || pads.size() != 2 * k)
        return fail("LpPool: strides, dilations and pads must fit " + std::to_string(k) + " spatial dims");
    Dims dims = {x.dim(0), x.dim(1)};
    for (std::size_t d = 0; d < k; ++d) {
        const std::int64_t len = x.dim(d + 2), span = ((*kernel)[d] - 1) * dil[d] + 1;
        std::int64_t o = 0;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            o = (len + strides[d] - 1) / strides[d];
            const std::int64_t total = std::max<std::int64_t>(0, (o - 1) * strides[d] + span - len);
            pads[d] = autoPad == "SAME_UPPER" ? total / 2 : (total + 1) / 2;
            pads[d + k] = total - pads[d];
        } else {
            if (autoPad == "VALID")
                pads[d] = pads[d + k] = 0;
            const std::int64_t room = len + pads[d] + pads[d + k] - span;
            o = (ceil ? (room + strides[d] - 1) / strides[d] : room / strides[d]) + 1;
            if (ceil && (o - 1) * strides[d] >= len + pads[d])
                --o;
        }
        dims.push_back(std::max<std::int64_t>(o, 0));
    }
    const HostTensor wide = toF64(ctx.pool, x);
    HostTensor result(dims, DType::F64);
    const Dims inStrides = contiguousStrides(Dims(x.dims().begin() + 2, x.dims().end()));
    const std::int64_t image = product(x.dims(), 2), outImage = product(dims, 2), window = product(*kernel);
    for (std::int64_t nc = 0; nc < x.dim(0) * x.dim(1); ++nc)
        for (std::int64_t o = 0; o < outImage; ++o) {
            double sum = 0;
            for (std::int64_t w = 0; w < window; ++w) {
                std::int64_t offset = 0, orem = o, wrem = w;
                bool inside = true;
                for (std::size_t d = k; d-- > 0;) {
                    const std::int64_t oc = orem % dims[d + 2], wc = wrem % (*kernel)[d];
                    orem /= dims[d + 2];
                    wrem /= (*kernel)[d];
                    const std::int64_t at = oc * strides[d] - pads[d] + wc * dil[d];
                    inside = inside && at >= 0 && at < x.dim(d + 2);
                    offset += at * inStrides[d];
                }
                if (inside)
                    sum += std::pow(std::abs(wide.values<double>()[static_cast<std::size_t>(nc * image + offset)]), p);
            }
            result.values<double>()[static_cast<std::size_t>(nc * outImage + o)] = std::pow(sum, 1 / p);
        }
    return fromWide(ctx, result, x.dtype(), out);
}

KernelStatus runAffineGrid(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 2 || in[0]->rank() != 3)
        return fail("AffineGrid needs theta [N, 2, 3] or [N, 3, 4] and a size");
    const HostTensor theta = toF64(ctx.pool, *in[0]);
    const auto k = static_cast<std::size_t>(in[0]->dim(1)); // 2 or 3 spatial dims
    if ((k != 2 && k != 3) || in[0]->dim(2) != static_cast<std::int64_t>(k) + 1 || in[1]->elements() != k + 2)
        return fail("AffineGrid: theta " + describe(*in[0]) + " does not fit size " + describe(*in[1]));
    const bool alignCorners = ctx.attrs().intOr("align_corners", 0) != 0;
    const std::int64_t n = in[1]->valueAsInt(0);
    Dims spatial; // D (3-D), H, W
    for (std::size_t d = 0; d < k; ++d)
        spatial.push_back(in[1]->valueAsInt(2 + d));
    Dims dims = {n};
    dims.insert(dims.end(), spatial.begin(), spatial.end());
    dims.push_back(static_cast<std::int64_t>(k));
    auto base = [&](std::int64_t i, std::int64_t len) {
        if (alignCorners)
            return len > 1 ? -1 + 2.0 * static_cast<double>(i) / static_cast<double>(len - 1) : 0.0;
        return (2.0 * static_cast<double>(i) + 1) / static_cast<double>(len) - 1;
    };
    HostTensor grid(dims, DType::F64);
    double* g = grid.values<double>().data();
    const std::int64_t points = product(spatial);
    for (std::int64_t b = 0; b < n; ++b)
        for (std::int64_t p = 0; p < points; ++p) {
            double coords[4] = {0, 0, 0, 1}; // x, y, z, 1: x runs along the last dim
            for (std::int64_t d = static_cast<std::int64_t>(k), rem = p; d-- > 0;) {
                const std::int64_t len = spatial[static_cast<std::size_t>(d)];
                coords[k - 1 - static_cast<std::size_t>(d)] = base(rem % len, len);
                rem /= len;
            }
            coords[k] = 1;
            const double* t = theta.values<double>().data() + b * static_cast<std::int64_t>(k * (k + 1));
            for (std::size_t r = 0; r < k; ++r) {
                double v = 0;
                for (std::size_t c = 0; c <= k; ++c)
                    v += t[r * (k + 1) + c] * coords[c];
                *g++ = v;
            }
        }
    return fromWide(ctx, grid, in[0]->dtype(), out);
}

// In F32, as ONNX's reference computes it: the scale's rounding decides ties.
KernelStatus runDynamicQuantizeLinear(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor wide = toF64(ctx.pool, *in[0]);
    float lo = 0, hi = 0;
    for (double v : wide.values<double>()) {
        lo = std::min(lo, static_cast<float>(v));
        hi = std::max(hi, static_cast<float>(v));
    }
    const float scale = (hi - lo) / 255.0f;
    const float zero = scale > 0 ? std::clamp(std::nearbyint(-lo / scale), 0.0f, 255.0f) : 0.0f;
    const std::int64_t output = onnxOutput(ctx);
    if (output == 1) {
        out = HostTensor::fromBytes({}, DType::F32, &scale, sizeof scale);
        return ok();
    }
    out.reset(output == 2 ? Dims{} : in[0]->dims(), DType::U8);
    if (output == 2) {
        out.values<std::uint8_t>()[0] = static_cast<std::uint8_t>(zero);
        return ok();
    }
    auto y = out.values<std::uint8_t>();
    for (std::size_t i = 0; i < y.size(); ++i) {
        const float v = static_cast<float>(wide.values<double>()[i]);
        y[i] = static_cast<std::uint8_t>(scale > 0 ? std::clamp(std::nearbyint(v / scale) + zero, 0.0f, 255.0f) : zero);
    }
    return ok();
}

} // namespace costscope::cpu
