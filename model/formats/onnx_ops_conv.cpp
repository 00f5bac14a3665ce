// SPDX-License-Identifier: MIT
// Conv, ConvTranspose and pooling: kernel, strides, dilations and pads, with auto_pad resolved to explicit pads
// where the input's spatial dims are static.
#include "formats/onnx_ops.h"

#include <algorithm>

namespace costscope::onnx_import {

namespace {
using Ints = std::vector<std::int64_t>;

struct Window {
    Ints kernel, stride, dilation, padBegin, padEnd;
    std::string autoPad; // kept only when it could not be resolved
};

std::optional<Diagnostic> checkLength(const NodeContext& ctx, const char* what, const Ints& v, std::size_t n)
{
    if (v.size() == n)
        return std::nullopt;
    return ctx.error(std::string(what) + " has " + std::to_string(v.size()) + " values for a "
                     + std::to_string(n) + "-D kernel");
}

// SAME_UPPER puts the odd padding at the end, SAME_LOWER at the beginning (ONNX Conv/Pool semantics).
bool resolveSamePads(const NodeContext& ctx, Window& w, bool upper)
{
    const Shape* in = ctx.inputShape(0);
    const std::size_t n = w.kernel.size();
    if (!in || in->rank() != n + 2)
        return false;
    for (std::size_t i = 0; i < n; ++i) {
        const Dim& d = in->dims[i + 2];
        if (!d.isStatic())
            return false;
        const std::int64_t out = (d.value + w.stride[i] - 1) / w.stride[i];
        const std::int64_t extent = (w.kernel[i] - 1) * w.dilation[i] + 1;
        const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * w.stride[i] + extent - d.value);
        w.padBegin[i] = upper ? total / 2 : total - total / 2;
        w.padEnd[i] = total - w.padBegin[i];
    }
    return true;
}

std::optional<Diagnostic> readWindow(const NodeContext& ctx, Ints kernel, Window& w, bool transposed)
{
    const std::size_t n = kernel.size();
    w.kernel = std::move(kernel);
    w.stride = ctx.attrInts("strides").value_or(Ints(n, 1));
    w.dilation = ctx.attrInts("dilations").value_or(Ints(n, 1));
    Ints pads = ctx.attrInts("pads").value_or(Ints(2 * n, 0));
    if (auto e = checkLength(ctx, "strides", w.stride, n))
        return e;
    if (auto e = checkLength(ctx, "dilations", w.dilation, n))
        return e;
    if (auto e = checkLength(ctx, "pads", pads, 2 * n))
        return e;
    if (std::any_of(w.stride.begin(), w.stride.end(), [](auto s) { return s <= 0; }))
        return ctx.error("strides must be positive");
    w.padBegin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(n));
    w.padEnd.assign(pads.begin() + static_cast<std::ptrdiff_t>(n), pads.end());
    const std::string autoPad = ctx.attrString("auto_pad").value_or("NOTSET");
    if (autoPad == "VALID") {
        std::fill(w.padBegin.begin(), w.padBegin.end(), 0);
        std::fill(w.padEnd.begin(), w.padEnd.end(), 0);
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        if (transposed || !resolveSamePads(ctx, w, autoPad == "SAME_UPPER")) {
            w.autoPad = autoPad;
            ctx.warn("auto_pad " + autoPad + " kept as an attribute: the pads depend on sizes not known here");
        }
    } else if (autoPad != "NOTSET") {
        return ctx.error("unknown auto_pad '" + autoPad + "'");
    }
    return std::nullopt;
}

void setWindow(Attrs& a, const Window& w, bool alwaysDilation)
{
    a.set("kernel_size", w.kernel);
    a.set("stride", w.stride);
    a.set("padding", w.padBegin);
    if (w.padEnd != w.padBegin)
        a.set("padding_end", w.padEnd);
    if (alwaysDilation || std::any_of(w.dilation.begin(), w.dilation.end(), [](auto d) { return d != 1; }))
        a.set("dilation", w.dilation);
    if (!w.autoPad.empty())
        a.set("auto_pad", w.autoPad);
}

Mapped mapConv(const NodeContext& ctx, bool transposed)
{
    if (!ctx.hasInput(0) || !ctx.hasInput(1))
        return ctx.error(ctx.opType() + " needs inputs X and W, has " + std::to_string(ctx.inputCount())
                         + " input(s)");
    Ints kernel;
    if (auto k = ctx.attrInts("kernel_shape")) {
        kernel = *k;
    } else if (const Shape* ws = ctx.inputShape(1); ws && ws->rank() >= 3 && ws->isStatic()) {
        for (std::size_t i = 2; i < ws->rank(); ++i)
            kernel.push_back(ws->dims[i].value);
    } else {
        return ctx.error("kernel_shape is missing and the weight shape is not known");
    }
    Window w;
    if (auto e = readWindow(ctx, kernel, w, transposed))
        return *e;
    Attrs a;
    setWindow(a, w, true);
    a.set("groups", ctx.attrInt("group").value_or(1));
    if (transposed) {
        a.set("output_padding", ctx.attrInts("output_padding").value_or(Ints(kernel.size(), 0)));
        if (auto os = ctx.attrInts("output_shape"))
            a.set("output_shape", *os);
    }
    std::vector<int> inputs{0, 1};
    if (ctx.hasInput(2))
        inputs.push_back(2);
    return single(Op::make(transposed ? OpKind::ConvTranspose : OpKind::Conv, std::move(a)), inputs);
}

Mapped mapPool(const NodeContext& ctx, const char* kind)
{
    auto kernel = ctx.attrInts("kernel_shape");
    if (!kernel)
        return ctx.error("the required attribute kernel_shape is missing");
    Window w;
    if (auto e = readWindow(ctx, *kernel, w, false))
        return *e;
    Attrs a;
    a.set("kind", std::string(kind));
    setWindow(a, w, false);
    if (ctx.attrInt("ceil_mode").value_or(0) != 0)
        a.set("ceil_mode", true);
    if (std::string(kind) == "Avg" && ctx.attrInt("count_include_pad").value_or(0) != 0)
        a.set("count_include_pad", true);
    return single(Op::make(OpKind::Pool, std::move(a)), {0});
}

Mapped mapGlobalPool(const char* kind)
{
    Attrs a;
    a.set("kind", std::string(kind));
    return single(Op::make(OpKind::GlobalPool, std::move(a)), {0});
}
} // namespace

std::optional<Mapped> mapConvLike(const NodeContext& ctx)
{
    const std::string& t = ctx.opType();
    if (t == "Conv")
        return mapConv(ctx, false);
    if (t == "ConvTranspose")
        return mapConv(ctx, true);
    if (t == "MaxPool")
        return mapPool(ctx, "Max");
    if (t == "AveragePool")
        return mapPool(ctx, "Avg");
    if (t == "GlobalAveragePool")
        return mapGlobalPool("Avg");
    if (t == "GlobalMaxPool")
        return mapGlobalPool("Max");
    return std::nullopt;
}

} // namespace costscope::onnx_import
