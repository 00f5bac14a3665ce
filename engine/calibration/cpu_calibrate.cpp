// SPDX-License-Identifier: MIT
#include "calibration/cpu_calibrate.h"

#include "analysis/costscope_cost_model.h"
#include "analysis/gemm_rate.h"
#include "calibration/host_probe.h"
#include "calibration/micro_graphs.h"
#include "calibration/sgemm_table.h"
#include "calibration/time_graph.h"
#include "cpu/cpu_backend.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace costscope {

namespace {
using Clock = std::chrono::steady_clock;

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Median wall time of one whole-graph run, in ns.
Result<double> timeGraph(Backend& backend, const Graph& g, const CpuCalibrationOptions& o)
{
    return costscope::timeGraph(backend, g, o.warmupRuns, o.repeats, o.cancel);
}

// Keeps both cores busy with a large sgemm for `seconds` before anything is timed: a CPU that was idle runs the
// first few hundred milliseconds of work at a lower clock (on the development VM the quick grid measured 88
// instead of 160 GFLOP/s at 512^3 when it started cold).
Result<bool> warmUp(Backend& backend, double seconds, const CpuCalibrationOptions& o)
{
    auto plan = readyPlan(backend, matmulGraph(256, 256, 256));
    if (!plan)
        return plan.error();
    const auto t0 = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - t0).count() < seconds)
        if (auto r = (*plan)->run(o.cancel); !r)
            return r.error();
    return true;
}

double memcpyBandwidth(std::size_t bytes, const CpuCalibrationOptions& o)
{
    std::vector<char> src(bytes, 1), dst(bytes);
    std::vector<double> samples;
    for (int i = 0; i < o.warmupRuns + o.repeats; ++i) {
        const auto t0 = Clock::now();
        std::memcpy(dst.data(), src.data(), bytes);
        const double ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        if (i >= o.warmupRuns)
            samples.push_back(ns);
    }
    // The copy must be observable or the compiler may drop it.
    return dst[bytes / 2] == 1 ? double(bytes) / std::max(1.0, medianOf(samples)) : 0.0;
}
// The cost model's FLOPs and the per-sample lowering of a micro-graph's last node.
OpWork lastNodeWork(const Graph& g)
{
    const GraphWork w = CostscopeCostModel().work(g, {});
    return w.nodes.empty() ? OpWork{} : w.nodes.back();
}

// Layers typical of the CNNs Costscope is used on, one sample (the backend runs Conv a sample at a time): a 7x7
// stride-2 stem, 3x3 blocks at three widths, AlexNet's 11x11 stride 4, a 1x1 reduction.
// Two small layers at batch 16 set the fixed cost of a call apart from the column rate.
constexpr ConvLayer kConvLayers[] = {
    {1, 3, 224, 64, 7, 2, 3},  {1, 64, 56, 64, 3, 1, 1},  {1, 128, 28, 128, 3, 1, 1},
    {1, 256, 14, 256, 3, 1, 1}, {1, 3, 224, 64, 11, 4, 2}, {1, 256, 56, 64, 1, 1, 0},
    {16, 3, 16, 8, 3, 1, 1},    {16, 8, 8, 16, 3, 1, 1},
};

// The im2col rate (column bytes per ns) and the fixed cost of a call (ns) that explain the measured layers best:
// each costs its GEMMs at the sgemm table's rate, plus 4 bytes per column element at that rate, plus the fixed cost
// per call; least squares on what the GEMMs leave. A negative call cost falls back to the rate alone.
struct ConvFit {
    double im2colBw = 0, callNs = 0;
};

ConvFit fitConv(const std::vector<CpuCalibration::ConvPoint>& points, const GemmRate& gemm)
{
    double cc = 0, cn = 0, nn = 0, cr = 0, nr = 0;
    for (const CpuCalibration::ConvPoint& c : points) {
        const OpWork::PerSample& s = c.lowering;
        const double columns = 4.0 * s.columnElements, calls = double(s.calls);
        const double rest = c.ns - calls * 2.0 * double(s.m) * double(s.k) * double(s.n)
                                       / std::max(gemm.at(s.m, s.k, s.n), 1e-9);
        cc += columns * columns;
        cn += columns * calls;
        nn += calls * calls;
        cr += columns * rest;
        nr += calls * rest;
    }
    const double det = cc * nn - cn * cn;
    if (det > 0) {
        const double perByte = (cr * nn - nr * cn) / det, perCall = (cc * nr - cn * cr) / det;
        if (perByte > 0 && perCall >= 0)
            return {1.0 / perByte, perCall};
    }
    return {cr > 0 && cc > 0 ? cc / cr : 0.0, 0.0};
}
} // namespace

std::vector<SgemmPoint> cpuSgemmGrid(bool quick)
{
    std::vector<SgemmPoint> grid;
    const std::vector<std::int64_t> sizes = quick ? std::vector<std::int64_t>{16, 64, 256, 512}
                                                  : std::vector<std::int64_t>{16, 32, 64, 128, 256, 512, 1024};
    for (std::int64_t s : sizes)
        grid.push_back({s, s, s, 0});
    // Skinny shapes: a few rows (batch-1 linear layers) and a wide inner dimension.
    const std::vector<std::int64_t> skinny = quick ? std::vector<std::int64_t>{1, 8} : std::vector<std::int64_t>{1, 4, 16, 64};
    const std::int64_t big = quick ? 512 : 1024;
    for (std::int64_t m : skinny)
        grid.push_back({m, big, big, 0});
    grid.push_back({big, 16, big, 0});
    if (!quick) {
        grid.push_back({256, 1024, 64, 0});
        grid.push_back({1024, 256, 256, 0});
    }
    return grid;
}

Result<CpuCalibration> calibrateCpu(const CpuCalibrationOptions& o)
{
    CpuBackend backend;
    CpuCalibration c;
    const auto devices = backend.devices();
    c.device = devices.empty() ? "cpu" : devices.front().name;
    c.numThreads = devices.empty() ? 1 : std::max(1, devices.front().computeUnits);
    const std::vector<SgemmPoint> grid = cpuSgemmGrid(o.quick);
    // Large enough to leave the last-level cache, small enough for a quick run.
    const std::int64_t elements = o.quick ? (std::int64_t(1) << 23) : (std::int64_t(1) << 25);
    // From the L1 and L2 caches out to DRAM; the largest is the bandwidth figures' size.
    const std::vector<std::int64_t> copySizes = {std::int64_t(1) << 12, std::int64_t(1) << 15, std::int64_t(1) << 17,
                                                  std::int64_t(1) << 19, std::int64_t(1) << 21, elements};
    // Kernels that run far from both peak FLOP rate and bandwidth: window loops, pow, libm calls, and Sum, which
    // clears its output and then adds each input into it (1 + 3n tensor passes for n inputs, not n + 1).
    // Each also small: a kernel under the backend's parallel grain runs on one thread (a transformer's 4096-element
    // Gelu took 3x its large-size rate's time), and per-call work weighs more.
    const std::vector<Graph> kernels = {poolGraph(64, 56, "Max"), poolGraph(8, 28, "Max"), lrnGraph(64, 56),
                                        lrnGraph(8, 28), globalPoolGraph(256, 28), globalPoolGraph(32, 14),
                                        rowOpGraph(OpKind::Softmax, 256, 1000), rowOpGraph(OpKind::Softmax, 8, 256),
                                        rowOpGraph(OpKind::LayerNorm, 256, 768), rowOpGraph(OpKind::LayerNorm, 8, 256),
                                        addGraph(std::int64_t(1) << 20, OpKind::Sum),
                                        addGraph(std::int64_t(1) << 14, OpKind::Sum),
                                        addGraph(std::int64_t(1) << 18, OpKind::Binary, "Pow"),
                                        addGraph(std::int64_t(1) << 12, OpKind::Binary, "Pow")};
    // Activations by function: a vectorised Relu runs at memory speed, the libm ones (exp, tanh, erf) 10 to 100
    // times slower per element. "Activation" alone (functions not measured here) takes Sigmoid's rate. Sizes: one
    // chunk of the engine's element-wise grain (2^14) and below it on one thread, and 2^18 on all threads.
    static constexpr const char* kActivations[] = {"Relu", "Sigmoid", "Tanh", "Erf", "Gelu", "GeluApprox", "Exp", "Silu"};
    static constexpr std::int64_t kActivationSizes[] = {std::int64_t(1) << 12, std::int64_t(1) << 14,
                                                        std::int64_t(1) << 18};
    // The sgemm grid, read, write and copy bandwidth, one and a chain of tiny nodes, the host readback, copies by
    // size, the kernel rates, the Conv layers and a view.
    const int steps = static_cast<int>(grid.size() + copySizes.size() + kernels.size() + std::size(kConvLayers)
                                       + std::size(kActivations) * std::size(kActivationSizes))
                    + 7;
    int done = 0;
    auto timed = [&](const Graph& g) {
        auto ns = timeGraph(backend, g, o);
        if (ns && o.progress)
            o.progress(++done, steps);
        return ns;
    };
    if (auto w = warmUp(backend, o.quick ? 0.5 : 1.0, o); !w)
        return w.error();
    // The reference times before and after the figures: a run compares its own probe with their mean.
    auto probeBefore = probeHost(backend, 0, o.cancel);
    if (!probeBefore)
        return probeBefore.error();
    for (SgemmPoint p : grid) {
        auto ns = timed(matmulGraph(p.m, p.k, p.n));
        if (!ns)
            return ns.error();
        p.gflops = 2.0 * double(p.m) * double(p.k) * double(p.n) / std::max(1.0, *ns);
        c.sgemm.push_back(p);
    }
    const double tensorBytes = double(elements) * 4.0;
    auto readNs = timed(reduceGraph(elements));
    auto writeNs = readNs ? timed(fillGraph(elements)) : readNs;
    auto copyNs = writeNs ? timed(chainGraph(elements, 1)) : writeNs;
    if (!copyNs)
        return copyNs.error();
    c.readBw = tensorBytes / std::max(1.0, *readNs);
    c.writeBw = tensorBytes / std::max(1.0, *writeNs);
    c.copyBw = 2.0 * tensorBytes / std::max(1.0, *copyNs);
    constexpr int kChain = 64;
    // Tiny broadcasting Adds, the most common small node. A Relu chain measured about 170 ns a node, while the
    // small nodes of the shared graphs took about 1 us more than their predictions: most kernels do more per-node
    // work (broadcast strides, attribute lookups) than the activation kernel.
    auto one = timed(addChainGraph(16, 1));
    auto many = one ? timed(addChainGraph(16, kChain)) : one;
    if (!many)
        return many.error();
    c.dispatchNs = std::max(0.0, (*many - *one) / (kChain - 1));
    c.roundtripNs = *one;
    if (o.cancel && o.cancel->load())
        return Diagnostic::error("calibration cancelled");
    c.hostReadbackBw = memcpyBandwidth(std::size_t(tensorBytes), o);
    if (o.progress)
        o.progress(++done, steps);
    // An Add streams two tensors in and one out through vector code; the Relu of the copy figure runs the
    // activation kernel's per-element dispatch, which bounds it below the bandwidth.
    for (std::int64_t n : copySizes) {
        auto ns = timed(addGraph(n));
        if (!ns)
            return ns.error();
        const double bytes = 12.0 * double(n);
        c.copyBwBySize.push_back({bytes, bytes / std::max(*ns - c.roundtripNs, 0.5 * *ns)});
    }
    // A kernel's rate at one size: its FLOPs over the graph's time less a one-node graph's (the model adds the
    // dispatch cost itself), as for the bandwidth table. The largest size of a key is its kernelGflops.
    auto kernelRate = [&](const Graph& g, const std::string& key) -> Result<bool> {
        auto ns = timed(g);
        if (!ns)
            return ns.error();
        const double flops = lastNodeWork(g).flops;
        const double gflops = flops / std::max({*ns - c.roundtripNs, 0.5 * *ns, 1.0});
        auto& points = c.kernelGflopsBySize[key];
        points.push_back({flops, gflops});
        std::sort(points.begin(), points.end(),
                  [](const KernelRatePoint& a, const KernelRatePoint& b) { return a.flops < b.flops; });
        c.kernelGflops[key] = points.back().gflops;
        return true;
    };
    for (const Graph& g : kernels) {
        const Op& op = g.nodes.back().op;
        if (auto r = kernelRate(g, op.kind == OpKind::Binary ? op.label() : std::string(op.info().name)); !r)
            return r.error();
    }
    for (const char* fn : kActivations)
        for (std::int64_t n : kActivationSizes) {
            const Graph g = chainGraph(n, 1, fn);
            if (auto r = kernelRate(g, g.nodes.back().op.label()); !r)
                return r.error();
        }
    c.kernelGflops["Activation"] = c.kernelGflops["Activation.Sigmoid"];
    c.kernelGflopsBySize["Activation"] = c.kernelGflopsBySize["Activation.Sigmoid"];
    for (const ConvLayer& l : kConvLayers) {
        const Graph g = convGraph(l);
        auto ns = timed(g);
        if (!ns)
            return ns.error();
        c.conv.push_back({lastNodeWork(g).perSample, *ns});
    }
    const std::int64_t viewElements = std::int64_t(1) << 20;
    auto viewNs = timed(reshapeGraph(viewElements));
    if (!viewNs)
        return viewNs.error();
    c.viewCopyBw = 8.0 * double(viewElements) / std::max(1.0, *viewNs);
    auto probeAfter = probeHost(backend, 0, o.cancel);
    if (!probeAfter)
        return probeAfter.error();
    c.probe = meanProbe(*probeBefore, *probeAfter);
    return c;
}

DeviceProfile profileFromCpuCalibration(const CpuCalibration& c, const std::string& name, const std::string& host,
                                        const std::string& date, const std::string& tool)
{
    DeviceProfile p;
    p.name = name;
    p.device = Device::Cpu;
    p.description = "CPU " + c.device + " (" + std::to_string(c.numThreads) + " threads), measured through the "
                    "Costscope CPU backend";
    p.source = "calibrated on " + host + " " + date + " by " + tool;
    p.calibration = Calibration::Measured;
    setSgemmTable(p, c.sgemm);
    p.memoryBw = c.copyBw;
    p.dispatchNs = c.dispatchNs;
    p.roundtripNs = c.roundtripNs;
    p.hostReadbackBw = c.hostReadbackBw;
    p.unifiedMemory = true;
    p.numThreads = c.numThreads;
    p.memoryBwTable = c.copyBwBySize;
    p.kernelGflops = c.kernelGflops;
    p.kernelGflopsBySize = c.kernelGflopsBySize;
    p.hostProbe = c.probe;
    p.convPerSample = true;
    p.gemmPacksB = true;
    const ConvFit conv = fitConv(c.conv, GemmRate(p));
    p.im2colBw = conv.im2colBw;
    p.convCallNs = conv.callNs;
    p.viewCopyBw = c.viewCopyBw;
    return p;
}

} // namespace costscope
