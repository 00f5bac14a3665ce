// SPDX-License-Identifier: MIT
// Accuracy of the cost models against this CPU or, with --backend cuda|vulkan, the first GPU: calibrate (quick
// grid on the CPU, calibrateCuda or calibrateVulkan on the GPU), run the shared graphs at batch 1, 8, 64 (plain
// median + one instrumented run), and compare RLX parity, the uncorrected Costscope model and the Costscope model
// with corrections fitted on half the graphs (evaluated on the other half).
// usage: bench_accuracy [DATA_DIR (default ../shared/data)] [--max-gflop 3000] [--batches 1,8,64]
//                       [--backend cpu|cuda|vulkan] [--dump FILE]
// Each node's measured time loses the per-node timing overhead of that run before the fit and the per-node errors
// (instrumentationOverheadNs, in fitRunFrom).
// --dump writes the calibrated profile and every run's per-node predictions (the uncorrected Costscope model's
// compute, memory and dispatch terms) and measurements as JSON, for studying the model without the machine.
#include "analysis/calibration_fit.h"
#include "analysis/costscope_cost_model.h"
#include "analysis/profile_io.h"
#include "analysis/rlx_profiles.h"
#include "backend.h"
#include "analysis/host_speed.h"
#include "calibration/cpu_calibrate.h"
#include "calibration/host_probe.h"
#include "calibration/micro_graphs.h"
#include "formats/graph_file.h"
#include "ir/rebatch.h"
#include "measure.h"
#include "synthetic.h"

#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/cuda_profile.h"
#include "cuda/cuda_calibrate.h"
#endif
#ifdef COSTSCOPE_HAVE_VULKAN
#include "vulkan/vulkan_profile.h"
#endif

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace costscope;
namespace fs = std::filesystem;

namespace {
struct Case {
    std::string graph;
    std::int64_t batch = 0;
    bool fitSet = false;
    double measuredNs = 0;
    FitRun rlx, costscope; // same measurements, predictions of each model
    FitRun costscopeHost;  // the Costscope model with the profile scaled to the host's speed around this graph
    HostSpeed host;        // host probe now against the calibration's (1: as fast as when calibrated)
};

std::vector<fs::path> graphFiles(const fs::path& data)
{
    std::vector<fs::path> files;
    for (const char* dir : {"rlx", "onnx/light", "onnx/transformers"}) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(data / dir, ec)) {
            const std::string n = e.path().filename().string();
            if (n.ends_with(".hir.json") || (n.ends_with(".onnx")))
                files.push_back(e.path());
        }
    }
    std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
        return a.filename() < b.filename();
    });
    return files;
}

double seconds(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One graph at one batch: measured whole-graph median and per-node times.
Result<RunResult> measureOn(Backend& backend, const Graph& g)
{
    auto plan = backend.compile(g, {}, 0);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : (*plan)->inputs())
        inputs.push_back(arangeInput(in.dims, in.dtype));
    if (auto r = (*plan)->setInputs(inputs); !r)
        return r.error();
    const auto t0 = std::chrono::steady_clock::now();
    if (auto r = (*plan)->run(); !r) // also the first warm-up
        return r.error();
    MeasureOptions o;
    o.warmupRuns = 1;
    o.timedRuns = std::clamp(static_cast<int>(1.0 / std::max(1e-6, seconds(t0))), 3, 15);
    o.perNode = true;
    return measure(**plan, o);
}

// One run for --dump: the graph-level figures and each costed node's terms beside its measured time.
nlohmann::json dumpRun(const Case& c, const Graph& g, const GraphCost& cs, const std::vector<NodeTiming>& perNode,
                       double spread)
{
    const GraphWork work = CostscopeCostModel().work(g, {});
    std::map<NodeId, std::int64_t> measured;
    for (const NodeTiming& t : perNode)
        measured[t.node] = t.ns;
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeCost& n : cs.nodes) {
        const Node* node = g.find(n.id);
        auto m = measured.find(n.id);
        if (!node || m == measured.end())
            continue;
        nodes.push_back({{"id", n.id}, {"op", node->op.label()}, {"class", std::string(opClassName(node->op.info().opClass))},
                         {"flops", n.flops}, {"bytes", n.bytes}, {"compute_ns", n.computeNs}, {"memory_ns", n.memoryNs},
                         {"dispatch_ns", n.dispatchNs}, {"total_ns", n.totalNs}, {"measured_ns", m->second}});
        // What the node works on, so that other pricings can be tried on the dump.
        const std::size_t at = *g.indexOf(n.id);
        nlohmann::json inputs = nlohmann::json::array();
        for (NodeId in : node->inputs)
            if (const Node* src = g.find(in))
                inputs.push_back(src->shape.toString());
        const OpWork& w = work.nodes[at];
        const Attrs& a = node->op.attrs;
        nodes.back().update({{"kind", std::string(node->op.info().name)}, {"inputs", inputs},
                             {"output", node->shape.toString()}, {"gemm", {w.gemmM, w.gemmK, w.gemmN}},
                             {"groups", a.intOr("groups", 1)}, {"kernel", a.intsOr("kernel_size", {})},
                             {"stride", a.intsOr("stride", {})}});
    }
    return {{"graph", c.graph}, {"batch", c.batch}, {"fit", c.fitSet}, {"measured_ns", c.measuredNs}, {"spread", spread},
            {"rlx_ns", c.rlx.predictedNs}, {"costscope_ns", c.costscope.predictedNs},
            {"costscope_host_ns", c.costscopeHost.predictedNs}, {"speed", c.host.gemm},
            {"host", {{"gemm", c.host.gemm}, {"kernel", c.host.kernel}, {"memory", c.host.memory},
                      {"dispatch", c.host.dispatch}}},
            {"nodes", nodes}};
}

void printStats(const char* model, const char* set, const std::vector<FitRun>& runs,
                const std::map<std::string, double>& corrections)
{
    const ErrorStats w = graphErrors(runs, corrections), n = nodeErrors(runs, corrections);
    std::printf("| %-22s | %-5s | %6d | %6.1f | %4.0f%% | %4.0f%% | %5d | %6.1f | %4.0f%% | %4.0f%% |\n", model, set,
                w.count, w.mape, 100 * w.within10, 100 * w.within25, n.count, n.mape, 100 * n.within10,
                100 * n.within25);
}
} // namespace

int main(int argc, char** argv)
{
    fs::path data = "../shared/data";
    double maxGflop = 3000;
    std::vector<std::int64_t> batches = {1, 8, 64};
    std::string backendName = "cpu";
    std::string dumpPath;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--backend" && i + 1 < argc)
            backendName = argv[++i];
        else if (a == "--dump" && i + 1 < argc)
            dumpPath = argv[++i];
        else if (a == "--max-gflop" && i + 1 < argc)
            maxGflop = std::stod(argv[++i]);
        else if (a == "--batches" && i + 1 < argc) {
            batches.clear();
            for (std::string s = argv[++i]; !s.empty();) {
                const auto comma = s.find(',');
                batches.push_back(std::stoll(s.substr(0, comma)));
                s = comma == std::string::npos ? "" : s.substr(comma + 1);
            }
        } else
            data = a;
    }
    DeviceProfile calibrated;
    Device device = Device::Cpu;
    if (backendName == "cpu") {
        CpuCalibrationOptions co;
        co.quick = true;
        auto calibration = calibrateCpu(co);
        if (!calibration) {
            std::fprintf(stderr, "calibration failed: %s\n", calibration.error().message.c_str());
            return 1;
        }
        calibrated = profileFromCpuCalibration(*calibration, "calibrated-cpu", "bench", "now", "bench_accuracy");
        std::printf("calibration: %s, %d threads; best sgemm %.1f GFLOP/s; copy %.2f, read %.2f, write %.2f, readback "
                    "%.2f GB/s; dispatch %.0f ns; roundtrip %.0f ns\n",
                    calibration->device.c_str(), calibration->numThreads, calibrated.sgemmGflops, calibration->copyBw,
                    calibration->readBw, calibration->writeBw, calibration->hostReadbackBw, calibration->dispatchNs,
                    calibration->roundtripNs);
        for (const SgemmPoint& p : calibration->sgemm)
            std::printf("  sgemm %lldx%lldx%lld: %.1f GFLOP/s\n", (long long)p.m, (long long)p.k, (long long)p.n,
                        p.gflops);
        std::printf("  Add bandwidth by bytes moved:");
        for (const BandwidthPoint& b : calibrated.memoryBwTable)
            std::printf(" %.0f KiB %.1f GB/s;", b.bytes / 1024, b.gbps);
        std::printf("\n  kernel rates:");
        for (const auto& [kind, gflops] : calibrated.kernelGflops)
            std::printf(" %s %.2f GFLOP/s;", kind.c_str(), gflops);
        std::printf("\n  im2col %.2f GB/s and %.0f ns a call (fitted on %zu Conv layers); view copy %.2f GB/s\n",
                    calibrated.im2colBw, calibrated.convCallNs, calibration->conv.size(), calibrated.viewCopyBw);
#ifdef COSTSCOPE_HAVE_CUDA
    } else if (backendName == "cuda") {
        device = Device::Cuda;
        auto calibration = calibrateCuda(0);
        if (!calibration) {
            std::fprintf(stderr, "calibration failed: %s\n", calibration.error().message.c_str());
            return 1;
        }
        calibrated = profileFromCudaCalibration(*calibration, "calibrated-cuda", "bench", "now");
        std::printf("calibration: %s; best sgemm %.1f GFLOP/s; copy %.2f GB/s; launch %.0f ns; launch+sync %.0f ns; "
                    "readback %.2f GB/s\n",
                    calibration->device.c_str(), calibrated.sgemmGflops, calibrated.memoryBw, calibrated.dispatchNs,
                    calibrated.roundtripNs, calibrated.hostReadbackBw);
#endif
#ifdef COSTSCOPE_HAVE_VULKAN
    } else if (backendName == "vulkan") {
        device = Device::Vulkan;
        auto calibration = calibrateVulkan(vulkanCalibrationOptions(false, 0));
        if (!calibration) {
            std::fprintf(stderr, "calibration failed: %s\n", calibration.error().message.c_str());
            return 1;
        }
        calibrated = profileFromVulkanCalibration(*calibration, "calibrated-vulkan", "bench", "now");
        std::printf("calibration: %s; best matmul %.1f GFLOP/s; im2col %.1f GB/s; element-wise %.2f GB/s; dispatch "
                    "%.0f ns; submit+wait %.0f ns; readback %.2f GB/s\n",
                    calibration->device.c_str(), calibrated.sgemmGflops, calibrated.im2colBw, calibrated.memoryBw,
                    calibrated.dispatchNs, calibrated.roundtripNs, calibrated.hostReadbackBw);
        for (const auto& m : calibration->matmul)
            std::printf("  matmul %lldx%lldx%lld: %.1f GFLOP/s\n", (long long)m.m, (long long)m.k, (long long)m.n,
                        m.gflops);
        for (const ConvPoint& c : calibration->conv)
            std::printf("  conv %s: %.1f GFLOP/s\n", c.shape.c_str(), c.flopsPerSecond / 1e9);
#endif
    } else {
        std::fprintf(stderr, "bench_accuracy: no calibration for backend %s (cpu; cuda, vulkan where built)\n",
                     backendName.c_str());
        return 2;
    }
    const auto rlxSet = rlxProfileSet("rlx-linux");
    const DeviceProfile rlxProfile = *findProfile(rlxSet, device);
    auto rlxModel = makeCostModel("rlx"), csModel = makeCostModel("costscope");
    auto backend = makeBackend(backendName);
    if (!backend) {
        std::fprintf(stderr, "bench_accuracy: no %s backend\n", backendName.c_str());
        return 2;
    }
    // The models price one kernel per node, and the per-node errors need a time for every node: no fusion.
    backend->setCompileOptions({false});

    std::vector<Case> cases;
    nlohmann::json dumped = nlohmann::json::array();
    // The host's speed around each graph against the calibration (CPU: the profile holds the probe's times).
    const bool probing = calibrated.hostProbe.valid();
    if (probing)
        std::printf("host probe at calibration: 256^3 MatMul %.1f us, Erf 2^14 %.1f us, Add 2^21 %.1f us, 64 tiny Adds "
                    "%.1f us; \"host\" below: gemm/kernel/memory/dispatch speed around each graph against these "
                    "(1.00: as fast as when calibrated)\n",
                    calibrated.hostProbe.gemmNs / 1e3, calibrated.hostProbe.kernelNs / 1e3,
                    calibrated.hostProbe.memoryNs / 1e3, calibrated.hostProbe.dispatchNs / 1e3);
    const auto files = graphFiles(data);
    std::printf("\nsplit: graphs sorted by file name; even positions fit the corrections, odd ones evaluate them\n");
    for (std::size_t gi = 0; gi < files.size(); ++gi) {
        auto loaded = loadGraphFile(files[gi].string());
        const std::string name = files[gi].filename().string();
        if (!loaded) {
            std::printf("%-32s not loadable: %s\n", name.c_str(), loaded.error().message.c_str());
            continue;
        }
        std::vector<std::pair<std::int64_t, Graph>> variants;
        for (std::int64_t batch : batches) {
            auto g = rebatch(loaded->graph, batch);
            if (g)
                variants.emplace_back(batch, std::move(*g));
            else
                std::printf("%-32s b%-3lld not rebatchable: %s\n", name.c_str(), (long long)batch,
                            g.error().message.c_str());
        }
        // A graph that cannot be rebatched still counts once, at the batch its file states (0: not told).
        if (variants.empty()) {
            const Node* in = nullptr;
            for (const Node& n : loaded->graph.nodes)
                in = !in && n.op.kind == OpKind::Input ? &n : in;
            const bool told = in && in->shape.rank() > 0 && in->shape.dims[0].isStatic();
            variants.emplace_back(told ? in->shape.dims[0].value : 0, loaded->graph);
        }
        for (auto& [batch, graph] : variants) {
            const Graph* g = &graph;
            const GraphCost rlx = rlxModel->estimate(*g, rlxProfile, {});
            const GraphCost cs = csModel->estimate(*g, calibrated, {});
            double flops = 0;
            for (const NodeCost& c : cs.nodes)
                flops += c.flops;
            if (flops / 1e9 > maxGflop) {
                std::printf("%-32s b%-3lld skipped: %.0f GFLOP over --max-gflop\n", name.c_str(), (long long)batch,
                            flops / 1e9);
                continue;
            }
            auto before = probing ? probeHost(*backend) : Result<HostProbe>(HostProbe{});
            auto r = measureOn(*backend, *g);
            if (!r) {
                std::printf("%-32s b%-3lld does not run: %s\n", name.c_str(), (long long)batch,
                            r.error().message.c_str());
                continue;
            }
            auto after = probing ? probeHost(*backend) : Result<HostProbe>(HostProbe{});
            Case c{name, batch, gi % 2 == 0, double(r->whole.medianNs), {}, {}, {}, {}};
            if (before && after)
                c.host = hostSpeed(calibrated.hostProbe, meanProbe(*before, *after));
            std::vector<std::pair<NodeId, double>> measured; // fitRunFrom removes the instrumentation overhead
            for (const NodeTiming& t : r->perNode)
                measured.emplace_back(t.node, double(t.ns));
            c.rlx = fitRunFrom(*g, rlx, measured, c.measuredNs);
            c.costscope = fitRunFrom(*g, cs, measured, c.measuredNs);
            c.costscopeHost = fitRunFrom(*g, csModel->estimate(*g, hostAdjusted(calibrated, c.host), {}), measured,
                                         c.measuredNs);
            std::printf("%-32s b%-3lld %s measured %10.3f ms (spread %3.0f%%)  rlx %10.3f  costscope %10.3f (%+4.0f%%)  "
                        "host-adj. %10.3f (%+4.0f%%)  host %.2f/%.2f/%.2f/%.2f\n",
                        name.c_str(), (long long)batch, c.fitSet ? "fit " : "eval", c.measuredNs / 1e6,
                        100 * r->whole.spread, c.rlx.predictedNs / 1e6, c.costscope.predictedNs / 1e6,
                        100 * (c.costscope.predictedNs / c.measuredNs - 1), c.costscopeHost.predictedNs / 1e6,
                        100 * (c.costscopeHost.predictedNs / c.measuredNs - 1), c.host.gemm, c.host.kernel,
                        c.host.memory, c.host.dispatch);
            if (const double overhead = instrumentationOverheadNs(measured, c.measuredNs); overhead > 0)
                std::printf("    node timing overhead %.2f us a node\n", overhead / 1e3);
            // Where the time goes in the slower runs: the three slowest nodes of the instrumented run.
            if (c.measuredNs > 5e6) {
                std::vector<NodeTiming> slowest = r->perNode;
                std::sort(slowest.begin(), slowest.end(),
                          [](const NodeTiming& x, const NodeTiming& y) { return x.ns > y.ns; });
                std::printf("    slowest nodes:");
                for (std::size_t i = 0; i < std::min<std::size_t>(3, slowest.size()); ++i)
                    std::printf(" %s #%lld %.3f ms;", slowest[i].label.c_str(), (long long)slowest[i].node,
                                double(slowest[i].ns) / 1e6);
                std::printf("\n");
            }
            std::fflush(stdout);
            if (!dumpPath.empty())
                dumped.push_back(dumpRun(c, *g, cs, r->perNode, r->whole.spread));
            cases.push_back(std::move(c));
        }
    }
    std::vector<FitRun> fitRuns, evalCs, evalRlx, allCs, allRlx, fitHost, evalHost, allHost;
    for (const Case& c : cases) {
        (c.fitSet ? fitRuns : evalCs).push_back(c.costscope);
        (c.fitSet ? fitHost : evalHost).push_back(c.costscopeHost);
        if (!c.fitSet)
            evalRlx.push_back(c.rlx);
        allCs.push_back(c.costscope);
        allRlx.push_back(c.rlx);
        allHost.push_back(c.costscopeHost);
    }
    const FitReport fit = fitCorrections(fitRuns);
    FitOptions weighted;
    weighted.weightByTime = true;
    const FitReport fitW = fitCorrections(fitRuns, weighted);
    // Corrections fitted on the host-adjusted predictions: what the model gets wrong once the host's drift is out.
    const FitReport fitH = fitCorrections(fitHost);
    for (const FitReport* f : {&fit, &fitW, &fitH}) {
        std::printf("\ncorrections fitted on the fit half (%s):",
                    f == &fit ? "uniform" : f == &fitW ? "time-weighted" : "host-adjusted, uniform");
        for (const auto& [cls, factor] : f->corrections)
            std::printf(" %s x%.2f (%d)", cls.c_str(), factor, f->samples.at(cls));
    }
    std::printf("\n\n| model                  | set   | graphs | MAPE %% | ±10%% | ±25%% | nodes | MAPE %% | ±10%% | ±25%% |\n");
    for (const char* set : {"eval", "all"}) {
        const bool eval = std::string(set) == "eval";
        printStats("rlx parity", set, eval ? evalRlx : allRlx, {});
        printStats("costscope uncorrected", set, eval ? evalCs : allCs, {});
        printStats("costscope calibrated", set, eval ? evalCs : allCs, fit.corrections);
        printStats("costscope calibrated-w", set, eval ? evalCs : allCs, fitW.corrections);
        if (probing) {
            printStats("host-adj. uncorrected", set, eval ? evalHost : allHost, {});
            printStats("host-adj. calibrated", set, eval ? evalHost : allHost, fitH.corrections);
        }
    }
    if (!dumpPath.empty()) {
        std::ofstream out(dumpPath);
        out << nlohmann::json{{"profile", nlohmann::json::parse(profileToJsonText(calibrated))}, {"runs", dumped}}.dump(1);
    }
    return 0;
}
