// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

namespace costscope::shape_rules {

namespace {
// Integer arithmetic that remembers an overflow instead of wrapping (attrs come straight from files).
struct Checked {
    std::int64_t v = 0;
    bool overflow = false;

    Checked operator+(Checked o) const { return apply(o, __builtin_add_overflow(v, o.v, &o.v)); }
    Checked operator-(Checked o) const { return apply(o, __builtin_sub_overflow(v, o.v, &o.v)); }
    Checked operator*(Checked o) const { return apply(o, __builtin_mul_overflow(v, o.v, &o.v)); }
    Checked apply(Checked r, bool over) const { return {r.v, overflow || r.overflow || over}; }
};

Checked c(std::int64_t v)
{
    return {v, false};
}

struct Window {
    std::vector<std::int64_t> kernel, stride, padBegin, padEnd, dilation, outputPadding;
    bool ceilMode = false;
};

Result<std::vector<std::int64_t>> listAttr(const InferInput& x, const std::string& key, std::size_t n,
                                           std::int64_t dflt, std::int64_t minValue)
{
    auto v = x.op.attrs.getInts(key).value_or(std::vector<std::int64_t>(n, dflt));
    if (v.size() != n)
        return x.fail(key + " has " + std::to_string(v.size()) + " values, the input has " + std::to_string(n)
                      + " spatial dims");
    for (std::int64_t e : v)
        if (e < minValue)
            return x.fail(key + " value " + std::to_string(e) + " is below " + std::to_string(minValue));
    return v;
}

Result<Window> readWindow(const InferInput& x, std::vector<std::int64_t> kernel)
{
    const std::size_t n = kernel.size();
    Window w;
    w.kernel = std::move(kernel);
    auto stride = listAttr(x, "stride", n, 1, 1);
    auto pad = listAttr(x, "padding", n, 0, 0);
    auto dil = listAttr(x, "dilation", n, 1, 1);
    auto outPad = listAttr(x, "output_padding", n, 0, 0);
    for (auto* r : {&stride, &pad, &dil, &outPad})
        if (!*r)
            return r->error();
    w.stride = *stride;
    w.padBegin = *pad;
    auto padEnd = listAttr(x, "padding_end", n, 0, 0);
    if (x.op.attrs.has("padding_end") && !padEnd)
        return padEnd.error();
    w.padEnd = x.op.attrs.has("padding_end") ? *padEnd : w.padBegin;
    w.dilation = *dil;
    w.outputPadding = *outPad;
    w.ceilMode = x.flag("ceil_mode", false);
    return w;
}

// One output spatial size; a symbolic input keeps its symbol when the window preserves size.
Result<Dim> windowOutput(const InferInput& x, const Dim& in, const Window& w, std::size_t i, bool transposed)
{
    const Checked span = c(w.dilation[i]) * (c(w.kernel[i]) - c(1));
    const Checked pads = c(w.padBegin[i]) + c(w.padEnd[i]);
    if (!in.isStatic()) {
        const Checked grow = transposed ? span - pads + c(w.outputPadding[i]) : pads - span;
        if (w.stride[i] == 1 && !grow.overflow)
            if (auto d = offsetDim(in, grow.v))
                return *d;
        return derivedDim(transposed ? "convT" : x.op.name, in);
    }
    Checked out;
    if (transposed) {
        out = (c(in.value) - c(1)) * c(w.stride[i]) - pads + span + c(w.outputPadding[i]) + c(1);
    } else {
        const Checked room = c(in.value) + pads - span - c(1);
        if (room.overflow)
            return x.fail("arithmetic overflows in spatial dim " + std::to_string(i));
        if (room.v < 0)
            return x.fail("window of " + std::to_string(span.v + 1) + " exceeds the padded input ("
                          + std::to_string(in.value) + " + " + std::to_string(pads.v) + ") in spatial dim "
                          + std::to_string(i));
        std::int64_t q = room.v / w.stride[i];
        if (w.ceilMode && room.v % w.stride[i] != 0) {
            ++q;
            // A last window that would start entirely in the end padding is dropped (ONNX/PyTorch ceil_mode).
            const Checked lastStart = c(q) * c(w.stride[i]);
            const Checked inputEnd = c(in.value) + c(w.padBegin[i]);
            if (lastStart.overflow || inputEnd.overflow || lastStart.v >= inputEnd.v)
                --q;
        }
        out = c(q) + c(1);
    }
    if (out.overflow || out.v > kMaxDim)
        return x.fail("spatial dim " + std::to_string(i) + " overflows (over 2^62)");
    if (out.v < 0)
        return x.fail("spatial dim " + std::to_string(i) + " comes out negative (" + std::to_string(out.v) + ")");
    return Dim::fixed(out.v);
}

Result<Shape> applyWindow(const InferInput& x, Dim channels, const Window& w, bool transposed)
{
    const Shape& in = x.in[0];
    Shape out{{in.dims[0], std::move(channels)}, in.dtype};
    for (std::size_t i = 0; i < w.kernel.size(); ++i) {
        auto d = windowOutput(x, in.dims[i + 2], w, i, transposed);
        if (!d)
            return d.error();
        out.dims.push_back(*d);
    }
    return out;
}

Result<Shape> conv(const InferInput& x, bool transposed)
{
    const Shape& in = x.in[0];
    const Shape& wt = x.in[1];
    if (in.rank() < 3)
        return x.fail("input must be [N, C, spatial...], got " + in.toString());
    if (wt.rank() != in.rank())
        return x.fail("weight " + wt.toString() + " and input " + in.toString() + " differ in rank");
    const std::int64_t groups = x.op.attrs.intOr("groups", 1);
    if (groups < 1)
        return x.fail("groups must be 1 or more, is " + std::to_string(groups));
    std::vector<std::int64_t> kernel;
    for (std::size_t i = 2; i < wt.rank(); ++i)
        kernel.push_back(wt.dims[i].isStatic() ? wt.dims[i].value : 1);
    if (auto k = x.op.attrs.getInts("kernel_size"); k && wt.isStatic() && *k != kernel)
        return x.fail("kernel_size does not match the weight " + wt.toString());
    const Dim& c = in.dims[1];
    Dim outChannels = wt.dims[0];
    const Dim& wIn = transposed ? wt.dims[0] : wt.dims[1];
    if (transposed) {
        auto oc = mulDims(wt.dims[1], Dim::fixed(groups));
        if (!oc)
            return x.fail("output channels overflow");
        outChannels = *oc;
        if (c.isStatic() && wIn.isStatic() && c.value != wIn.value)
            return x.fail("input has " + c.toString() + " channels, weight expects " + wIn.toString());
    } else if (wIn.isStatic() && c.isStatic()) {
        std::int64_t expect = 0;
        if (__builtin_mul_overflow(wIn.value, groups, &expect))
            return x.fail("weight channels x groups overflows");
        if (c.value != expect)
            return x.fail("input has " + c.toString() + " channels, weight expects " + std::to_string(expect));
        if (outChannels.isStatic() && outChannels.value % groups != 0)
            return x.fail("output channels " + outChannels.toString() + " are not divisible by groups "
                          + std::to_string(groups));
    }
    auto w = readWindow(x, kernel);
    if (!w)
        return w.error();
    return applyWindow(x, outChannels, *w, transposed);
}

Result<Shape> pool(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto kernel = x.op.attrs.getInts("kernel_size");
    if (!kernel)
        return x.fail("attribute kernel_size is missing");
    if (in.rank() != kernel->size() + 2)
        return x.fail("input " + in.toString() + " does not fit a " + std::to_string(kernel->size())
                      + "-D kernel (needs [N, C, spatial...])");
    for (std::int64_t k : *kernel)
        if (k < 1)
            return x.fail("kernel_size value " + std::to_string(k) + " is below 1");
    auto w = readWindow(x, *kernel);
    if (!w)
        return w.error();
    return applyWindow(x, in.dims[1], *w, false);
}

Result<Shape> globalPool(const InferInput& x)
{
    Shape out = x.in[0];
    if (out.rank() < 3)
        return x.fail("input must be [N, C, spatial...], got " + out.toString());
    for (std::size_t i = 2; i < out.rank(); ++i)
        out.dims[i] = Dim::fixed(1);
    return out;
}
} // namespace

Result<Shape> inferConv(const InferInput& x)
{
    switch (x.op.kind) {
    case OpKind::Conv: return conv(x, false);
    case OpKind::ConvTranspose: return conv(x, true);
    case OpKind::Pool: return pool(x);
    default: return globalPool(x);
    }
}

} // namespace costscope::shape_rules
