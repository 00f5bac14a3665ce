// SPDX-License-Identifier: MIT
// The CUDA backend's fusion pass on the GPU machine (no Qt there): every graph is compiled twice, with fusion on and
// off, run on the same inputs, and its outputs compared (small cases against the CPU backend too); then the whole-
// graph time fused vs unfused (CUDA graph replay, median of 50) and the kernels each plan launches. Graphs: small
// element-wise chains and GEMM epilogues, an element-wise chain over 2^26 floats, and the GPT-2/BERT-shaped graphs
// of cuda_transformer_graphs.h as built in the IR (FusedMatMulBiasAct) and as an ONNX export writes them.
// Usage: bench_cuda_fusion [--quick]   (--quick: batch 1 and 8 only, 20 timed runs)
// Exit status 1 when a check fails, 77 without a CUDA device.
#include "bench_cuda_fusion_graphs.h"
#include "cpu/cpu_backend.h"
#include "cuda/cuda_backend.h"
#include "cuda/fused_nvrtc.h"
#include "cuda_transformer_graphs.h"
#include "measure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace costscope;
using cudacases::attrs;
using cudacases::Builder;

namespace {
int g_failures = 0;
int g_runs = 50;

void check(bool ok, const std::string& what)
{
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
    g_failures += ok ? 0 : 1;
}

struct Ran {
    std::vector<HostTensor> outputs;
    double medianUs = 0;
    std::vector<NodeTiming> kernels; // one instrumented run
};

Result<Ran> runOn(Backend& be, const Graph& g, const std::vector<HostTensor>& inputs, bool timed)
{
    auto plan = preparePlan(be, g, {}, 0, inputs);
    if (!plan)
        return plan.error();
    Ran out;
    MeasureOptions o;
    o.timedRuns = timed ? g_runs : 1;
    o.warmupRuns = timed ? 5 : 0;
    auto m = measure(**plan, o);
    if (!m)
        return m.error();
    out.outputs = std::move(m->outputs);
    out.medianUs = double(m->whole.medianNs) * 1e-3;
    auto t = (*plan)->runInstrumented(nullptr);
    if (!t)
        return t.error();
    out.kernels = std::move(*t);
    return out;
}

// Worst |got - want| over every output, relative to max(1, max |want|).
double relativeError(const std::vector<HostTensor>& got, const std::vector<HostTensor>& want)
{
    if (got.size() != want.size())
        return INFINITY;
    double worst = 0;
    for (std::size_t o = 0; o < got.size(); ++o) {
        if (got[o].dims() != want[o].dims() || got[o].dtype() != want[o].dtype())
            return INFINITY;
        double scale = 1, err = 0;
        for (std::uint64_t i = 0; i < want[o].elements(); ++i) {
            const double g = got[o].valueAsDouble(i), w = want[o].valueAsDouble(i);
            err = std::isnan(g) != std::isnan(w) ? INFINITY : std::max(err, std::isnan(g) ? 0.0 : std::abs(g - w));
            scale = std::max(scale, std::abs(w));
        }
        worst = std::max(worst, err / scale);
    }
    return worst;
}

std::size_t fusedKernels(const std::vector<NodeTiming>& kernels)
{
    return std::size_t(
        std::count_if(kernels.begin(), kernels.end(), [](const NodeTiming& t) { return !t.fused.empty(); }));
}

// The first fused kernels of an instrumented run: name, time, the nodes they ran.
void printKernels(const std::string& name, const std::vector<NodeTiming>& kernels)
{
    std::printf("fused kernels of %s (first layer):\n", name.c_str());
    int shown = 0;
    for (const NodeTiming& k : kernels)
        if (!k.fused.empty() && shown++ < 6) {
            std::printf("  node %llu %s %.1f us, with nodes", static_cast<unsigned long long>(k.node), k.label.c_str(),
                        double(k.ns) * 1e-3);
            for (NodeId id : k.fused)
                std::printf(" %llu", static_cast<unsigned long long>(id));
            std::printf("\n");
        }
}

// Every element-wise group runs as a kernel NVRTC compiled for it, where the build has NVRTC.
void elementWiseKernelsAreCompiled(const std::string& name, const std::vector<NodeTiming>& kernels)
{
    std::string why;
    if (!cuda::nvrtcEnabled(&why)) {
        std::printf("NOTE %s: element-wise groups interpreted (%s)\n", name.c_str(), why.c_str());
        return;
    }
    std::size_t interpreted = 0, compiled = 0;
    for (const NodeTiming& k : kernels) {
        interpreted += k.label.rfind("fused_elementwise(", 0) == 0;
        compiled += k.label.rfind("fused_elementwise_nvrtc(", 0) == 0;
    }
    check(interpreted == 0, name + ": " + std::to_string(compiled) + " element-wise groups compiled by NVRTC, "
                                + std::to_string(interpreted) + " interpreted");
}

// Compiles and runs `g` fused and unfused; checks the two agree (and, with `cpu`, that fused matches the CPU
// backend); prints times and kernel counts (and, with `showKernels`, the fused kernels). `expectFused`: fused
// kernels the plan must have (-1: any number). Returns the fused time over the unfused (infinite when either failed).
double compare(const std::string& name, const Graph& g, const std::vector<HostTensor>& inputs, bool cpu, double tol,
               int expectFused = -1, bool showKernels = false, const char* expectLabel = nullptr)
{
    CudaBackend fusedBe, plainBe;
    plainBe.setCompileOptions({false});
    auto fused = runOn(fusedBe, g, inputs, true);
    auto plain = runOn(plainBe, g, inputs, true);
    if (!fused || !plain) {
        check(false, name + ": " + (!fused ? "fused: " + fused.error().message : "unfused: " + plain.error().message));
        return INFINITY;
    }
    const double err = relativeError(fused->outputs, plain->outputs);
    char line[512];
    std::snprintf(line, sizeof line, "%s: fused matches unfused (rel err %.3g, tol %.1g)", name.c_str(), err, tol);
    check(err <= tol, line);
    if (cpu) {
        CpuBackend cpuBe;
        auto ref = runOn(cpuBe, g, inputs, false);
        const double cpuErr = ref ? relativeError(fused->outputs, ref->outputs) : INFINITY;
        std::snprintf(line, sizeof line, "%s: fused matches the CPU backend (rel err %.3g, tol %.1g)", name.c_str(),
                      cpuErr, tol);
        check(cpuErr <= tol, line);
    }
    elementWiseKernelsAreCompiled(name, fused->kernels);
    const std::size_t groups = fusedKernels(fused->kernels);
    if (expectFused >= 0)
        check(groups == std::size_t(expectFused),
              name + ": " + std::to_string(groups) + " fused kernels, expected " + std::to_string(expectFused));
    std::printf("TIME %s: fused %.1f us (%zu kernels, %zu of them fused), unfused %.1f us (%zu kernels): "
                "fused/unfused %.3f\n",
                name.c_str(), fused->medianUs, fused->kernels.size(), groups, plain->medianUs, plain->kernels.size(),
                fused->medianUs / plain->medianUs);
    if (showKernels)
        printKernels(name, fused->kernels);
    if (expectLabel) {
        const bool found = std::any_of(fused->kernels.begin(), fused->kernels.end(),
                                       [&](const NodeTiming& k) { return k.label.rfind(expectLabel, 0) == 0; });
        check(found, name + ": a kernel labelled " + expectLabel + "...");
    }
    return fused->medianUs / plain->medianUs;
}

NodeId binary(Builder& b, const char* op, NodeId x, NodeId y, std::vector<std::int64_t> dims)
{
    return b.op(OpKind::Binary, attrs({{"op", std::string(op)}}), {x, y}, std::move(dims));
}

NodeId activation(Builder& b, const char* op, NodeId x, std::vector<std::int64_t> dims)
{
    return b.op(OpKind::Activation, attrs({{"op", std::string(op)}}), {x}, std::move(dims));
}

void smallCases()
{
    {
        // Broadcasting, a Cast from I64, a diamond and an activation with attributes in one program.
        Builder b;
        const std::vector<std::int64_t> d = {3, 5, 7};
        const NodeId x = b.input(d);
        const NodeId ids = b.input({5, 1}, DType::I64);
        const NodeId f = b.op(OpKind::Cast, attrs({{"to", std::string("F32")}}), {ids}, {5, 1});
        const NodeId scaled = binary(b, "Mul", x, b.param({7}, cudacases::values(7, 3)), d);
        const NodeId shifted = binary(b, "Sub", scaled, f, d);
        const NodeId left = activation(b, "Tanh", shifted, d);
        const NodeId right =
            b.op(OpKind::Activation, attrs({{"op", std::string("LeakyRelu")}, {"alpha", 0.2}}), {shifted}, d);
        const NodeId out = binary(b, "Div", binary(b, "Add", left, right, d), b.param({1}, {4.0f}), d);
        std::vector<std::int64_t> idValues = {0, 1, 2, 3, 4};
        const std::vector<HostTensor> in = {cudacases::tensor(d, cudacases::values(105, 5)),
                                            HostTensor::fromBytes({5, 1}, DType::I64, idValues.data(), 40)};
        compare("element-wise program (broadcast, cast, diamond)", b.finish(out), in, true, 1e-5, 1);
    }
    for (const char* act : {"Relu", "GeluApprox", ""}) {
        // MatMul + bias + residual (+ activation) as one cuBLASLt call.
        Builder b;
        const std::int64_t m = 64, k = 96, n = 80;
        const NodeId x = b.input({2, m, k});
        const NodeId res = b.input({2, m, n});
        const NodeId mm =
            b.op(OpKind::MatMul, {}, {x, b.param({k, n}, cudacases::values(std::size_t(k * n), 7))}, {2, m, n});
        NodeId y = binary(b, "Add", mm, b.param({n}, cudacases::values(std::size_t(n), 8)), {2, m, n});
        y = binary(b, "Add", res, y, {2, m, n});
        if (*act)
            y = activation(b, act, y, {2, m, n});
        const std::vector<HostTensor> in = {
            cudacases::tensor({2, m, k}, cudacases::values(std::size_t(2 * m * k), 9)),
            cudacases::tensor({2, m, n}, cudacases::values(std::size_t(2 * m * n), 10))};
        compare(std::string("GEMM epilogue bias+residual") + (*act ? "+" : "") + act, b.finish(y), in, true, 1e-4, 1,
                true);
    }
    {
        Builder b;
        const NodeId x = b.input({32, 48});
        const NodeId y = b.op(
            OpKind::FusedMatMulBiasAct, attrs({{"activation", std::string("GeluApprox")}}),
            {x, b.param({48, 40}, cudacases::values(48 * 40, 11)), b.param({40}, cudacases::values(40, 12))}, {32, 40});
        // A group of one node: no other node in its kernel, the label says it ran as one cuBLASLt call with its
        // bias and GELU in the epilogue ("cublasLt[fp32]+GeluApprox(" would be two kernels).
        compare("FusedMatMulBiasAct GeluApprox as one cuBLASLt call", b.finish(y),
                {cudacases::tensor({32, 48}, cudacases::values(32 * 48, 13))}, true, 1e-4, 0, false,
                "cublasLt[fp32](FusedMatMulBiasAct)");
    }
}

// Attention as an ONNX export writes it, run as one attention kernel: small cases against the CPU backend, then
// GPT-2 small's shape (batch 8, sequence 128, 12 heads of 64) for the time. Timed only, not bounded: the kernel
// is slower than the unfused kernels so far, so the backend fuses attention only on request.
void attentionCases()
{
    struct Case {
        const char* name;
        cudacases::AttentionGraphConfig config;
        bool cpu;
    };
    const Case cases[] = {
        {"attention, heads interleaved, causal mask", {2, 32, 4, 16, true, true, false}, true},
        {"attention, batched heads, divided, no mask", {2, 32, 4, 64, false, false, true}, true},
        {"attention, GPT-2 small shape batch 8", {8, 128, 12, 64, true, true, false}, false},
    };
    setenv("COSTSCOPE_CUDA_FUSED_ATTENTION", "1", 1); // the default; set in case the caller's environment says 0
    for (const Case& c : cases) {
        const cudacases::AttentionGraph a = cudacases::attentionGraph(c.config);
        std::vector<HostTensor> in;
        for (NodeId id : {a.q, a.k, a.v}) {
            const Node& n = *a.graph.find(id);
            std::vector<std::int64_t> dims;
            for (const Dim& d : n.shape.dims)
                dims.push_back(*d.resolve({}));
            std::size_t count = 1;
            for (std::int64_t d : dims)
                count *= std::size_t(d);
            in.push_back(cudacases::tensor(dims, cudacases::values(count, unsigned(id))));
        }
        compare(c.name, a.graph, in, c.cpu, 1e-4, -1, false, "attention(");
    }
    unsetenv("COSTSCOPE_CUDA_FUSED_ATTENTION");
}

// y = relu(x * s + t) - x over 2^26 floats: four kernels unfused, one fused.
void largeChain()
{
    const std::int64_t n = std::int64_t(1) << 26;
    Builder b;
    const NodeId x = b.input({n});
    const NodeId s = b.op(OpKind::Param, {}, {}, {n});
    const NodeId t = b.op(OpKind::Param, {}, {}, {n});
    const NodeId y =
        binary(b, "Sub", activation(b, "Relu", binary(b, "Add", binary(b, "Mul", x, s, {n}), t, {n}), {n}), x, {n});
    std::vector<float> values(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = float(i % 1000) * 1e-3f - 0.5f;
    const Graph g = b.finish(y);
    const std::vector<HostTensor> in = {cudacases::tensor({n}, values)};
    // The interpreted kernel first (NVRTC off for this plan), then the kernel NVRTC compiles for the program.
    if (cuda::nvrtcEnabled()) {
        setenv("COSTSCOPE_CUDA_NVRTC", "0", 1);
        const double interpreted =
            compare("element-wise chain of 4 over 2^26 floats, interpreted kernel", g, in, false, 1e-6, 1);
        unsetenv("COSTSCOPE_CUDA_NVRTC");
        std::printf("interpreted kernel: fused/unfused %.3f\n", interpreted);
    }
    const double ratio = compare("element-wise chain of 4 over 2^26 floats", g, in, false, 1e-6, 1);
    // Unfused moves 11 floats an element (Mul, Add and Sub read two and write one, Relu one and one), fused 4: the
    // specialised kernel should come near 4/11.
    const double bound = cuda::nvrtcEnabled() ? 0.45 : 0.6;
    char line[160];
    std::snprintf(line, sizeof line, "element-wise chain of 4 over 2^26 floats: fused at most %.2fx the unfused time",
                  bound);
    check(ratio <= bound, line);
}

void transformers(bool quick)
{
    for (bool decomposed : {false, true})
        for (bool causal : {true, false})
            for (std::int64_t batch :
                 quick ? std::vector<std::int64_t>{1, 8} : std::vector<std::int64_t>{1, 2, 8, 64}) {
                cudacases::TransformerConfig c;
                c.batch = batch;
                c.causal = causal;
                c.decomposed = decomposed;
                const Graph g = cudacases::transformerGraph(c);
                std::vector<std::int64_t> ids(std::size_t(batch * c.seq));
                for (std::size_t i = 0; i < ids.size(); ++i)
                    ids[i] = std::int64_t((i * 37 + 11) % std::size_t(c.vocab));
                const HostTensor in = HostTensor::fromBytes({batch, c.seq}, DType::I64, ids.data(), ids.size() * 8);
                const std::string name = std::string(causal ? "gpt2" : "bert") + "_12l-shaped"
                                         + (decomposed ? " (ONNX-like ops)" : "") + " batch " + std::to_string(batch);
                const double ratio = compare(name, g, {in}, false, 1e-3, -1, batch == 1 && causal);
                check(ratio <= 1.05, name + ": fused no slower than unfused (within 5 %)");
            }
}
} // namespace

int main(int argc, char** argv)
{
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    if (quick)
        g_runs = 20;
    CudaBackend probe;
    const auto devices = probe.devices();
    if (devices.empty()) {
        std::printf("SKIP no CUDA device\n");
        return 77;
    }
    std::printf("device: %s (fp32 matmuls, TF32 off)\n", devices.front().name.c_str());
    smallCases();
    attentionCases();
    largeChain();
    transformers(quick);
    std::printf("%s: %d check(s) failed\n", g_failures ? "FAILED" : "ALL PASSED", g_failures);
    return g_failures ? 1 : 0;
}
