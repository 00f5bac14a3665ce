// SPDX-License-Identifier: MIT
// ONNX-only ops (findOnnxKernel): NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (the loss, and log_prob as
// output 1), with
// class weights, ignore_index and the none / sum / mean reductions (mean divides by the summed weights of the
// targets that count, as ONNX's reference does).
#include "cpu/dtype_convert.h"
#include "cpu/kernel.h"
#include "cpu/onnx_named_kernels.h"

#include <cmath>
#include <limits>

namespace costscope::cpu {

namespace {
// The loss from log-probabilities `logp`, laid out as the scores [N, C, D...] (flattened: [N, C, D]).
KernelStatus nll(KernelContext& ctx, const Inputs& in, HostTensor& out, const std::vector<double>& logp)
{
    const HostTensor& x = *in[0];
    const HostTensor* target = onnxInput(ctx, in, 1);
    const HostTensor* weight = onnxInput(ctx, in, 2);
    if (!target || x.rank() < 2)
        return fail("needs scores [N, C, ...] and targets [N, ...], got " + describe(x));
    const std::int64_t n = x.dim(0), c = x.dim(1), d = product(x.dims(), 2);
    if (static_cast<std::int64_t>(target->elements()) != n * d)
        return fail("targets " + describe(*target) + " do not match scores " + describe(x));
    const auto ignore = ctx.attrs().getInt("ignore_index");
    const std::string reduction = ctx.attrs().stringOr("reduction", "mean");
    Dims lossDims = target->dims();
    HostTensor loss(lossDims, DType::F64);
    double* l = loss.values<double>().data();
    double total = 0, weights = 0;
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t k = 0; k < d; ++k) {
            const std::int64_t t = target->valueAsInt(static_cast<std::uint64_t>(i * d + k));
            if (ignore && t == *ignore) {
                l[i * d + k] = 0;
                continue;
            }
            if (t < 0 || t >= c)
                return fail("target " + std::to_string(t) + " is not a class in [0, " + std::to_string(c) + ")");
            const double w = weight ? weight->valueAsDouble(static_cast<std::uint64_t>(t)) : 1.0;
            l[i * d + k] = -logp[static_cast<std::size_t>((i * c + t) * d + k)] * w;
            total += l[i * d + k];
            weights += w;
        }
    HostTensor result = loss;
    if (reduction == "sum" || reduction == "mean") {
        const double v = reduction == "sum" ? total : total / weights;
        result = HostTensor::fromBytes({}, DType::F64, &v, sizeof v);
    } else if (reduction != "none") {
        return fail("unknown reduction '" + reduction + "'");
    }
    if (!convertTensor(ctx.pool, result, x.dtype(), out))
        return fail("cannot write " + describe(x));
    return ok();
}

KernelStatus runNllLoss(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    std::vector<double> logp(in[0]->elements());
    for (std::size_t i = 0; i < logp.size(); ++i)
        logp[i] = in[0]->valueAsDouble(i);
    return nll(ctx, in, out, logp);
}

KernelStatus runSoftmaxCrossEntropyLoss(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (x.rank() < 2)
        return fail("SoftmaxCrossEntropyLoss needs scores [N, C, ...], got " + describe(x));
    const std::int64_t n = x.dim(0), c = x.dim(1), d = product(x.dims(), 2);
    std::vector<double> logp(x.elements());
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t k = 0; k < d; ++k) {
            auto at = [&](std::int64_t j) { return static_cast<std::size_t>((i * c + j) * d + k); };
            double best = -std::numeric_limits<double>::infinity(), sum = 0;
            for (std::int64_t j = 0; j < c; ++j)
                best = std::max(best, x.valueAsDouble(at(j)));
            for (std::int64_t j = 0; j < c; ++j)
                sum += std::exp(x.valueAsDouble(at(j)) - best);
            for (std::int64_t j = 0; j < c; ++j)
                logp[at(j)] = x.valueAsDouble(at(j)) - best - std::log(sum);
        }
    if (onnxOutput(ctx) == 1) { // log_prob
        const HostTensor wide = HostTensor::fromBytes(x.dims(), DType::F64, logp.data(), logp.size() * sizeof(double));
        if (!convertTensor(ctx.pool, wide, x.dtype(), out))
            return fail("cannot write " + describe(x));
        return ok();
    }
    return nll(ctx, in, out, logp);
}
} // namespace

KernelFn findLossKernel(std::string_view opType)
{
    if (opType == "NegativeLogLikelihoodLoss")
        return runNllLoss;
    if (opType == "SoftmaxCrossEntropyLoss")
        return runSoftmaxCrossEntropyLoss;
    return nullptr;
}

} // namespace costscope::cpu
