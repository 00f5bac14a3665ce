// SPDX-License-Identifier: MIT
// Window, normalisation, softmax, reduction, spectral and gather ops.
#include "analysis/op_cost_detail.h"

#include <algorithm>
#include <cmath>

namespace costscope::opcost {

namespace {

bool isAverage(const Attrs& a)
{
    const std::string kind = a.stringOr("kind", "Max");
    return kind == "Avg" || kind == "Average" || kind == "Mean";
}

} // namespace

OpWork pool(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const double out = static_cast<double>(*c.outElements());
    const double avgDivide = isAverage(c.node.op.attrs) ? out : 0.0;
    if (c.node.op.kind == OpKind::GlobalPool) { // one op per input element, then the divide
        w.flops = static_cast<double>(c.inElements(0).value_or(0)) + avgDivide;
        return w;
    }
    double window = 1;
    for (std::int64_t k : c.node.op.attrs.intsOr("kernel_size", {}))
        window *= static_cast<double>(std::max<std::int64_t>(k, 1));
    w.flops = out * window + avgDivide;
    return w;
}

OpWork norm(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    // Per element: LayerNorm/InstanceNorm mean (1) + variance (3) + normalise (2) + affine (2); RmsNorm square,
    // accumulate, scale, gain; BatchNorm at inference (x - mean)·scale·gamma + beta; LRN a window of squares
    // (2 per neighbour) plus the power and divide.
    double perElement = 8;
    switch (c.node.op.kind) {
    case OpKind::RmsNorm: perElement = 5; break;
    case OpKind::BatchNorm: perElement = 4; break;
    case OpKind::Lrn:
        perElement = 2.0 * static_cast<double>(c.node.op.attrs.intOr("size", 5)) + 8;
        break;
    default: break;
    }
    w.flops = perElement * static_cast<double>(*c.outElements());
    return w;
}

OpWork softmax(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    // max, subtract, exp, sum, divide (LogSoftmax: log and subtract instead of divide): about 5 per element.
    w.flops = 5.0 * static_cast<double>(*c.outElements());
    return w;
}

OpWork reduce(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const bool mean = c.node.op.attrs.stringOr("op", "Sum") == "Mean";
    w.flops = static_cast<double>(c.inElements(0).value_or(0))
            + (mean ? static_cast<double>(*c.outElements()) : 0.0);
    return w;
}

OpWork spectral(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const Shape* in = c.input(0);
    const double inElems = static_cast<double>(c.inElements(0).value_or(0));
    const auto last = c.dim(in, -1);
    if (!in || !last || *last == 0)
        return w;
    const double lastDim = static_cast<double>(*last);
    switch (c.node.op.kind) {
    case OpKind::Fft: {
        // RLX's Fft takes a real tensor [rows, 2n] holding n complex values (real block, imaginary block); a
        // complex dtype holds one value per element. Radix-2 estimate: 5·n·log2(n) FLOPs per transform.
        const bool complex = in->dtype == DType::C64 || in->dtype == DType::C128;
        const double n = complex ? lastDim : lastDim / 2;
        const double transforms = inElems / lastDim;
        w.flops = n > 1 ? transforms * 5.0 * n * std::log2(n) : 0.0;
        return w;
    }
    case OpKind::LogMel: { // a mel filter bank (a matmul over the bins) and a log per output value
        const double out = static_cast<double>(*c.outElements());
        const double mels = static_cast<double>(c.dim(&c.node.shape, -1).value_or(1));
        w.flops = 2.0 * (out / std::max(mels, 1.0)) * lastDim * mels + 4.0 * out;
        return w;
    }
    default: { // WelchPeaks: power spectrum (3) and segment average (1) per value, then a top-k selection
        const double k = static_cast<double>(std::max<std::int64_t>(c.node.op.attrs.intOr("k", 16), 2));
        w.flops = inElems * (4.0 + std::log2(k));
        w.note = "WelchPeaks FLOPs are an estimate (power, average, top-k)";
        return w;
    }
    }
}

OpWork gather(const Ctx& c)
{
    // Reads the indices and the gathered rows (as many bytes as the output), writes the output; the table itself
    // is not streamed, so it is not counted.
    auto out = c.outBytes();
    if (!out)
        return skippedWork("unbound symbol in output shape " + c.node.shape.toString());
    std::uint64_t indices = 0;
    if (const Shape* idx = c.input(1)) {
        auto bytes = Ctx::bytesOf(c.in[1]);
        if (!bytes)
            return skippedWork("unbound symbol in index shape " + idx->toString());
        indices = *bytes;
    }
    OpWork w;
    w.bytes = indices + 2 * *out;
    return w;
}

} // namespace costscope::opcost
