// SPDX-License-Identifier: MIT
// CPU backend throughput against references measured in the same run:
// - our MatMul node at 1024^3 against cblas_sgemm called directly (target: >= 90% of its rate);
// - element-wise Add on 64 MiB tensors against the copy bandwidth of memcpy spread over the same threads
//   (target: >= 70%). Bandwidth counts the bytes each side must move: Add reads two tensors and writes one,
//   memcpy reads one and writes one.
#include "cpu/cpu_backend.h"
#include "cpu/thread_pool.h"
#include "measure.h"
#include "synthetic.h"

#ifdef COSTSCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

using namespace costscope;

namespace {
using Clock = std::chrono::steady_clock;

template <class F>
double medianSeconds(int warmup, int runs, F f)
{
    for (int i = 0; i < warmup; ++i)
        f();
    std::vector<std::int64_t> ns;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        f();
        ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
    }
    return double(TimingStats::of(ns).medianNs) * 1e-9;
}

Graph binaryGraph(OpKind kind, const char* sub, std::vector<std::int64_t> a, std::vector<std::int64_t> b)
{
    Graph g;
    for (int i = 0; i < 2; ++i) {
        Node n;
        n.id = i;
        Attrs attrs;
        attrs.set("name", std::string(i ? "b" : "a"));
        n.op = Op::make(OpKind::Input, attrs);
        n.shape = Shape::of(i ? b : a);
        g.add(n);
    }
    Node op;
    op.id = 2;
    Attrs attrs;
    if (sub)
        attrs.set("op", std::string(sub));
    op.op = Op::make(kind, attrs);
    op.inputs = {0, 1};
    g.add(op);
    g.outputs = {2};
    return g;
}

// Median seconds of one whole-graph run of g on the CPU backend.
double graphSeconds(const Graph& g, int warmup, int runs)
{
    CpuBackend backend;
    auto plan = backend.compile(g, {}, 0);
    if (!plan || !(*plan)->uploadParameters())
        return -1;
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : (*plan)->inputs()) {
        inputs.emplace_back(in.dims, in.dtype);
        fillSynthetic(inputs.back(), in.node);
    }
    if (!(*plan)->setInputs(inputs))
        return -1;
    MeasureOptions o;
    o.warmupRuns = warmup;
    o.timedRuns = runs;
    auto r = measure(**plan, o);
    return r ? double(r->whole.medianNs) * 1e-9 : -1;
}
} // namespace

int main()
{
    std::printf("CPU backend benchmark (%u hardware threads; %s)\n", std::thread::hardware_concurrency(),
                cpuBackendFeatures().c_str());

    const std::int64_t n = 1024;
    const double flops = 2.0 * double(n) * double(n) * double(n);
    const double nodeS = graphSeconds(binaryGraph(OpKind::MatMul, nullptr, {n, n}, {n, n}), 3, 20);
#ifdef COSTSCOPE_HAVE_OPENBLAS
    std::vector<float> a(static_cast<std::size_t>(n * n), 0.01f), b(a), c(a);
    const double blasS = medianSeconds(3, 20, [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n), int(n), int(n), 1.0f, a.data(), int(n),
                    b.data(), int(n), 0.0f, c.data(), int(n));
    });
    std::printf("sgemm 1024^3: MatMul node %.1f GFLOP/s, cblas_sgemm %.1f GFLOP/s, ratio %.1f%% (target >= 90%%)\n",
                flops / nodeS * 1e-9, flops / blasS * 1e-9, 100.0 * blasS / nodeS);
#else
    std::printf("sgemm 1024^3: MatMul node %.1f GFLOP/s (built-in loop; no OpenBLAS to compare with)\n",
                flops / nodeS * 1e-9);
#endif

    const std::int64_t elems = (64ll << 20) / 4;
    const double bytes = double(elems) * 4;
    const double addS = graphSeconds(binaryGraph(OpKind::Binary, "Add", {elems}, {elems}), 3, 20);
    cpu::ThreadPool pool;
    std::vector<float> src(static_cast<std::size_t>(elems), 1.0f), dst(static_cast<std::size_t>(elems), 0.0f);
    const double copyS = medianSeconds(3, 20, [&] {
        pool.parallelFor(elems, 1 << 16, [&](std::int64_t s, std::int64_t e) {
            std::memcpy(dst.data() + s, src.data() + s, static_cast<std::size_t>(e - s) * 4);
        });
    });
    const double addBw = 3 * bytes / addS, copyBw = 2 * bytes / copyS;
    std::printf("Add on 64 MiB: %.2f GB/s (3 x 64 MiB moved), memcpy copy %.2f GB/s (2 x 64 MiB), ratio %.1f%% "
                "(target >= 70%%)\n",
                addBw * 1e-9, copyBw * 1e-9, 100.0 * addBw / copyBw);
    return 0;
}
