// SPDX-License-Identifier: MIT
// Reduce, Softmax and LogSoftmax over F32 (the plan converts other dtypes, see precision.h).
#include "cpu/kernel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace costscope::cpu {

KernelStatus runReduce(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (auto s = requireDType(x, DType::F32, "Reduce input"); !s)
        return s;
    const std::string op = ctx.node.op.subOp();
    // L1, L2, SumSquare, LogSum and LogSumExp are a Sum between an element-wise step before and one after.
    const bool composite = op == "L1" || op == "L2" || op == "SumSquare" || op == "LogSum" || op == "LogSumExp";
    if (op != "Mean" && op != "Sum" && op != "Max" && op != "Min" && op != "Prod" && !composite)
        return fail("unsupported Reduce op '" + op + "'");
    const bool keep = ctx.attrs().getBool("keep_dim").value_or(ctx.attrs().intOr("keepdims", 1) != 0);
    std::vector<bool> reduced(x.rank(), false);
    auto axes = intsFromAttrOrInput(ctx, in, "axes", 1);
    if (axes && axes->empty() && ctx.attrs().getBool("noop_with_empty_axes").value_or(false)) {
        out = x; // axes computed at run time and empty: ONNX's noop_with_empty_axes leaves the input as it is
        return ok();
    }
    if (!axes || axes->empty())
        std::fill(reduced.begin(), reduced.end(), true);
    else
        for (std::int64_t a : *axes) {
            auto n = normalizeAxis(a, x.rank());
            if (!n)
                return fail("Reduce: axis " + std::to_string(a) + " out of range for " + describe(x));
            reduced[static_cast<std::size_t>(*n)] = true;
        }
    Dims dims, iterDims;
    for (std::size_t d = 0; d < x.rank(); ++d) {
        if (!reduced[d])
            dims.push_back(x.dim(d));
        else if (keep)
            dims.push_back(1);
        iterDims.push_back(reduced[d] ? 1 : x.dim(d));
    }
    out.reset(dims, DType::F32);
    // Output element o accumulates every input element whose kept coordinates equal o's.
    const Dims xStrides = contiguousStrides(x.dims());
    Dims redDims, redStrides;
    for (std::size_t d = 0; d < x.rank(); ++d)
        if (reduced[d]) {
            redDims.push_back(x.dim(d));
            redStrides.push_back(xStrides[d]);
        }
    const std::int64_t count = product(redDims);
    const float* src = x.values<float>().data();
    float* dst = out.values<float>().data();
    HostTensor before;
    float shift = 0; // LogSumExp subtracts the largest value before exp and adds it back after the log
    if (composite && op != "LogSum") {
        before.reset(x.dims(), DType::F32);
        float* b = before.values<float>().data();
        const auto n = static_cast<std::int64_t>(x.elements());
        if (op == "LogSumExp" && n)
            shift = *std::max_element(src, src + n);
        if (!std::isfinite(shift))
            shift = 0;
        for (std::int64_t i = 0; i < n; ++i)
            b[i] = op == "L1" ? std::abs(src[i]) : op == "LogSumExp" ? std::exp(src[i] - shift) : src[i] * src[i];
        src = b;
    }
    const auto after = [&] {
        if (!composite || op == "L1" || op == "SumSquare")
            return;
        for (std::int64_t o = 0; o < static_cast<std::int64_t>(out.elements()); ++o)
            dst[o] = op == "L2" ? std::sqrt(dst[o]) : std::log(dst[o]) + shift;
    };
    // Reducing the trailing dims makes every reduction one contiguous run (the common case: mean over H, W).
    bool trailing = true;
    for (std::size_t d = 0; d < x.rank(); ++d)
        trailing = trailing && (reduced[d] == (d >= x.rank() - redDims.size()));
    const int kind = op == "Sum" || composite ? 0 : op == "Mean" ? 1 : op == "Max" ? 2 : op == "Min" ? 3 : 4;
    if (trailing) {
        // One contiguous run per output, one loop per kind (the general loop below spent ~10 ns an element on its
        // index arithmetic and kind tests); same order of accumulation, so the same results.
        ctx.pool.parallelFor(product(iterDims), std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(count, 1)),
                             [&](std::int64_t s, std::int64_t e) {
            for (std::int64_t o = s; o < e; ++o) {
                const float* v = src + o * count;
                double acc = kind == 2 ? -std::numeric_limits<double>::infinity()
                           : kind == 3 ? std::numeric_limits<double>::infinity()
                           : kind == 4 ? 1.0 : 0.0;
                if (kind <= 1)
                    for (std::int64_t r = 0; r < count; ++r)
                        acc += v[r];
                else if (kind == 2)
                    for (std::int64_t r = 0; r < count; ++r)
                        acc = std::max(acc, double(v[r]));
                else if (kind == 3)
                    for (std::int64_t r = 0; r < count; ++r)
                        acc = std::min(acc, double(v[r]));
                else
                    for (std::int64_t r = 0; r < count; ++r)
                        acc *= v[r];
                dst[o] = static_cast<float>(kind == 1 && count ? acc / double(count) : acc);
            }
        });
        after();
        return ok();
    }
    ctx.pool.parallelFor(product(iterDims), 16, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t o = s; o < e; ++o) {
            std::int64_t rem = o, base = 0;
            for (std::size_t d = x.rank(); d-- > 0;) {
                base += (rem % iterDims[d]) * xStrides[d];
                rem /= iterDims[d];
            }
            double acc = kind == 2 ? -std::numeric_limits<double>::infinity()
                       : kind == 3 ? std::numeric_limits<double>::infinity()
                       : kind == 4 ? 1.0 : 0.0;
            for (std::int64_t r = 0; r < count; ++r) {
                std::int64_t rr = r, off = base;
                for (std::size_t d = trailing ? 0 : redDims.size(); d-- > 0;) {
                    off += (rr % redDims[d]) * redStrides[d];
                    rr /= redDims[d];
                }
                const double v = src[trailing ? base + r : off];
                acc = kind <= 1 ? acc + v : kind == 2 ? std::max(acc, v) : kind == 3 ? std::min(acc, v) : acc * v;
            }
            dst[o] = static_cast<float>(kind == 1 && count ? acc / double(count) : acc);
        }
    });
    after();
    return ok();
}

namespace {
KernelStatus softmaxImpl(KernelContext& ctx, const Inputs& in, HostTensor& out, bool logarithm)
{
    const HostTensor& x = *in[0];
    if (auto s = requireDType(x, DType::F32, "Softmax input"); !s)
        return s;
    auto a = normalizeAxis(ctx.attrs().intOr("axis", -1), x.rank());
    if (!a)
        return fail("Softmax: axis out of range for " + describe(x));
    const auto axis = static_cast<std::size_t>(*a);
    out.reset(x.dims(), DType::F32);
    const std::int64_t n = x.dim(axis);
    const std::int64_t inner = product(x.dims(), axis + 1);
    const std::int64_t outer = product(x.dims(), 0, axis);
    const float* src = x.values<float>().data();
    float* dst = out.values<float>().data();
    ctx.pool.parallelFor(outer * inner, 8, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t r = s; r < e; ++r) {
            const std::int64_t base = (r / inner) * n * inner + r % inner;
            float mx = -std::numeric_limits<float>::infinity();
            for (std::int64_t i = 0; i < n; ++i)
                mx = std::max(mx, src[base + i * inner]);
            double sum = 0;
            for (std::int64_t i = 0; i < n; ++i)
                sum += std::exp(double(src[base + i * inner] - mx));
            const double logSum = std::log(sum);
            for (std::int64_t i = 0; i < n; ++i) {
                const double v = double(src[base + i * inner] - mx);
                dst[base + i * inner] = static_cast<float>(logarithm ? v - logSum : std::exp(v) / sum);
            }
        }
    });
    return ok();
}
} // namespace

KernelStatus runSoftmax(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return softmaxImpl(ctx, in, out, false);
}

KernelStatus runLogSoftmax(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return softmaxImpl(ctx, in, out, true);
}

} // namespace costscope::cpu
