// SPDX-License-Identifier: MIT
// Conv layers timed through a backend's own lowering (CUDA: im2col + cuBLAS; Vulkan: implicit GEMM). Both run
// below their sgemm rate at the same GEMM volume because of the column gather; the profiles fit the im2col rate
// the cost model adds to the GEMM from these points.
#include "calibration/conv_layers.h"

#include "calibration/micro_graphs.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace costscope {

namespace {
constexpr ConvLayer kLayers[] = {
    {1, 3, 224, 64, 7, 2, 3},     {8, 3, 224, 64, 7, 2, 3},     {64, 3, 224, 64, 7, 2, 3},
    {1, 64, 56, 64, 3, 1, 1},     {8, 64, 56, 64, 3, 1, 1},     {64, 64, 56, 64, 3, 1, 1},
    {1, 256, 56, 64, 1, 1, 0},    {64, 256, 56, 64, 1, 1, 0},   {1, 256, 14, 256, 3, 1, 1},
    {8, 256, 14, 256, 3, 1, 1},   {64, 256, 14, 256, 3, 1, 1},  {1, 512, 7, 512, 3, 1, 1},
    {64, 512, 7, 512, 3, 1, 1},   {1, 64, 224, 64, 3, 1, 1},    {8, 64, 224, 64, 3, 1, 1},
    {64, 3, 224, 64, 11, 4, 2},   {64, 16, 55, 64, 3, 1, 1},    {64, 128, 55, 16, 1, 1, 0},
};

constexpr ConvLayer kQuickLayers[] = {
    {1, 3, 224, 64, 7, 2, 3}, {1, 64, 56, 64, 3, 1, 1}, {1, 256, 56, 64, 1, 1, 0},
    {1, 256, 14, 256, 3, 1, 1}, {1, 512, 7, 512, 3, 1, 1}, {1, 16, 55, 64, 3, 1, 1},
};

Node leaf(NodeId id, OpKind kind, std::vector<std::int64_t> dims, DType t)
{
    Node n;
    n.id = id;
    n.op = Op::make(kind);
    n.shape = Shape::of(std::move(dims), t);
    return n;
}

// ConstantOfShape(0.5) -> Conv: the input is filled on the device (no host tensor of up to a gigabyte), the
// weight is a Param the plan fills with synthetic values.
Graph convGraph(const ConvLayer& l, std::int64_t out, int copies, std::int64_t warmupElements)
{
    Graph g = warmupElements > 0 ? warmupGraph(warmupElements, 16) : Graph{};
    const std::vector<std::int64_t> xDims{l.batch, l.inChannels, l.size, l.size};
    Node shape = leaf(0, OpKind::Constant, {4}, DType::I64);
    std::vector<std::uint8_t> bytes(32);
    std::memcpy(bytes.data(), xDims.data(), 32);
    shape.data = makeTensorData(std::move(bytes));
    g.add(std::move(shape));
    Attrs fill;
    fill.set("value", 0.5);
    Node x = leaf(1, OpKind::ConstantOfShape, xDims, DType::F32);
    x.op = Op::make(OpKind::ConstantOfShape, fill);
    x.inputs = {0};
    g.add(std::move(x));
    g.add(leaf(2, OpKind::Param, {l.outChannels, l.inChannels, l.kernel, l.kernel}, DType::F32));
    Attrs a;
    a.set("stride", std::vector<std::int64_t>{l.stride, l.stride});
    a.set("padding", std::vector<std::int64_t>{l.pad, l.pad});
    for (int c = 0; c < std::max(copies, 1); ++c) {
        Node conv = leaf(3 + c, OpKind::Conv, {l.batch, l.outChannels, out, out}, DType::F32);
        conv.op = Op::make(OpKind::Conv, a);
        conv.inputs = {1, 2};
        g.add(std::move(conv));
        g.outputs.push_back(3 + c);
    }
    return g;
}
} // namespace

std::span<const ConvLayer> typicalConvLayers()
{
    return kLayers;
}

std::span<const ConvLayer> quickConvLayers()
{
    return kQuickLayers;
}

Result<std::vector<ConvPoint>> timeConvLayers(Backend& backend, DeviceIndex device, std::span<const ConvLayer> layers,
                                              int repeats, int inGraph, std::int64_t warmupElements)
{
    std::vector<ConvPoint> points;
    for (const ConvLayer& l : layers) {
        const std::int64_t out = (l.size + 2 * l.pad - l.kernel) / l.stride + 1;
        auto plan = backend.compile(convGraph(l, out, inGraph, warmupElements), {}, device);
        if (!plan)
            return Diagnostic::error("conv calibration: " + plan.error().message);
        if (auto r = (*plan)->uploadParameters(); !r)
            return r.error();
        std::vector<HostTensor> inputs; // the warm-up chain's, zeros
        for (const PlanInput& in : (*plan)->inputs())
            inputs.emplace_back(in.dims, in.dtype);
        if (auto r = (*plan)->setInputs(inputs); !inputs.empty() && !r)
            return r.error();
        if (auto r = (*plan)->run(nullptr); !r)
            return r.error();
        std::vector<std::int64_t> ns;
        for (int i = 0; i < std::max(repeats, 1); ++i) {
            auto t = (*plan)->runInstrumented(nullptr);
            if (!t)
                return t.error();
            for (const NodeTiming& n : *t)
                if (n.node == 3 ? inGraph <= 1 : n.node > 3 && n.node < kWarmupFirstId)
                    ns.push_back(n.ns);
        }
        if (ns.empty())
            return Diagnostic::error("conv calibration: the Conv node was not timed");
        std::nth_element(ns.begin(), ns.begin() + static_cast<std::ptrdiff_t>(ns.size() / 2), ns.end());
        ConvPoint p;
        p.shape = "b" + std::to_string(l.batch) + " c" + std::to_string(l.inChannels) + "x" + std::to_string(l.size)
                + "x" + std::to_string(l.size) + " k" + std::to_string(l.outChannels) + " " + std::to_string(l.kernel)
                + "x" + std::to_string(l.kernel) + " s" + std::to_string(l.stride);
        p.m = l.batch * out * out;
        p.k = l.inChannels * l.kernel * l.kernel;
        p.n = l.outChannels;
        p.seconds = std::max(double(ns[ns.size() / 2]), 1.0) * 1e-9;
        p.flopsPerSecond = 2.0 * double(p.m) * double(p.k) * double(p.n) / p.seconds;
        points.push_back(p);
    }
    return points;
}

double fitIm2colRate(const std::vector<ConvPoint>& points, const GemmRate& gemm)
{
    double cc = 0, cr = 0;
    for (const ConvPoint& v : points) {
        const double columns = 4.0 * double(v.m) * double(v.k);
        const double gemmNs = 2.0 * double(v.m) * double(v.k) * double(v.n) / std::max(gemm.at(v.m, v.k, v.n), 1e-9);
        cc += columns * columns;
        cr += columns * (v.seconds * 1e9 - gemmNs);
    }
    return cr > 0 ? cc / cr : 0.0;
}

} // namespace costscope
