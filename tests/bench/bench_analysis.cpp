// SPDX-License-Identifier: MIT
// Cost analysis speed, for the RLX parity model and the Costscope model: one device over a 100 000-node graph
// (target < 50 ms) and a sweep of 17 batch values × 6 devices over a 10 000-node graph (target < 100 ms). Ratios
// are against a plain pass over the same graph that computes Shape::bytes for every node, measured in the same run.
#include "analysis/costscope_cost_model.h"
#include "analysis/profile_library.h"
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"
#include "analysis/sweep.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <thread>

using namespace costscope;

namespace {

Shape batchBy(std::int64_t cols)
{
    Shape s = Shape::of({0, cols});
    s.dims[0] = Dim::named("batch");
    return s;
}

// Chains of MatMul → Add(bias) → Relu → LayerNorm over [batch, 256], sharing one weight and bias.
Graph chains(std::size_t nodes)
{
    Graph g;
    auto add = [&](OpKind k, std::vector<NodeId> in, Shape s, const char* sub = nullptr) {
        Node n;
        n.id = static_cast<NodeId>(g.nodes.size());
        Attrs a;
        if (sub)
            a.set("op", std::string(sub));
        n.op = Op::make(k, a);
        n.inputs = std::move(in);
        n.shape = std::move(s);
        g.nodes.push_back(std::move(n));
        return g.nodes.back().id;
    };
    NodeId prev = add(OpKind::Input, {}, batchBy(256));
    const NodeId w = add(OpKind::Param, {}, Shape::of({256, 256}));
    const NodeId bias = add(OpKind::Param, {}, Shape::of({256}));
    while (g.nodes.size() + 4 <= nodes) {
        const NodeId mm = add(OpKind::MatMul, {prev, w}, batchBy(256));
        const NodeId sum = add(OpKind::Binary, {mm, bias}, batchBy(256), "Add");
        const NodeId relu = add(OpKind::Activation, {sum}, batchBy(256), "Relu");
        prev = add(OpKind::LayerNorm, {relu}, batchBy(256));
    }
    g.outputs = {prev};
    return g;
}

struct Timing {
    double wallMs;
    double cpuMs; // process CPU time, all threads: on a busy machine, closer to what an idle one would take
};

// Median wall and CPU time of `runs` calls.
Timing median(int runs, const std::function<void()>& f)
{
    std::vector<double> wall, cpu;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        f();
        cpu.push_back(1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

Timing bytesPass(const Graph& g, const Bindings& b)
{
    volatile std::uint64_t sink = 0;
    return median(15, [&] {
        std::uint64_t s = 0;
        for (const Node& n : g.nodes)
            s += n.shape.bytes(b).value_or(0);
        sink = s;
    });
}

} // namespace

int main()
{
    const ProfilePaths paths = ProfilePaths::defaults(); // COSTSCOPE_PROFILES_DIR, else the source tree
    const ProfileLibrary lib = ProfileLibrary::load(paths);
    std::vector<DeviceProfile> six;
    for (const char* n : {"nvidia-h200", "nvidia-h100", "nvidia-a100", "nvidia-rtx4090", "amd-mi300x",
                          "generic-x86-16core"})
        if (const DeviceProfile* p = lib.find(n))
            six.push_back(*p);
    if (six.size() != 6) {
        std::fprintf(stderr, "bench_analysis: presets not found under %s\n", paths.presetDir.c_str());
        return 1;
    }
    // The RLX parity model's six: the rlx-linux rows of six devices (Metal is the discrete-GPU fallback).
    const std::vector<DeviceProfile> rlxSet = rlxProfileSet("rlx-linux");
    std::vector<DeviceProfile> rlxSix;
    for (Device d : {Device::Cpu, Device::Cuda, Device::Rocm, Device::Gpu, Device::Vulkan, Device::Metal})
        rlxSix.push_back(*findProfile(rlxSet, d));
    const CostscopeCostModel costscopeModel;
    const RlxCostModel rlxModel;
    const Bindings batch8{{"batch", 8}};

    const Graph big = chains(100000);
    const Timing refBig = bytesPass(big, batch8);
    std::printf("reference, bytes pass over 100k nodes: wall %.2f ms, cpu %.2f ms\n", refBig.wallMs, refBig.cpuMs);
    const Graph mid = chains(10000);
    const Timing refMid = bytesPass(mid, batch8);
    std::printf("reference, bytes pass over 10k nodes: wall %.3f ms, cpu %.3f ms\n", refMid.wallMs, refMid.cpuMs);
    const unsigned threads = std::max(1u, std::min(17u, std::thread::hardware_concurrency()));

    const std::pair<const CostModel*, const std::vector<DeviceProfile>*> runs[] = {{&rlxModel, &rlxSix},
                                                                                  {&costscopeModel, &six}};
    for (const auto& [model, profiles] : runs) {
        const std::string name = model->name();
        double total = 0;
        const Timing one = median(15, [&] { total = model->estimate(big, profiles->front(), batch8).totalNs; });
        std::printf("100k nodes, one device (%s model, %s): wall %.2f ms, cpu %.2f ms (target < 50); %.1fx the bytes"
                    " pass (cpu)  [total %.0f ns]\n",
                    name.c_str(), profiles->front().name.c_str(), one.wallMs, one.cpuMs, one.cpuMs / refBig.cpuMs,
                    total);

        SweepRequest req;
        req.values = *parseSweepValues("1:65536:x2");
        req.profiles = *profiles;
        std::size_t crossovers = 0;
        const Timing sweep = median(9, [&] { crossovers = runSweep(mid, *model, req).crossovers.size(); });
        std::printf("10k nodes, sweep 17 values x 6 devices (%s model): wall %.2f ms, cpu %.2f ms over %u threads"
                    " (target < 100); %.1fx 102 bytes passes (cpu)  [%zu crossovers]\n",
                    name.c_str(), sweep.wallMs, sweep.cpuMs, threads, sweep.cpuMs / (102 * refMid.cpuMs), crossovers);
    }
    return 0;
}
