// SPDX-License-Identifier: MIT
// CUDA backend driver for the GPU machine (no Qt there): the op-case sweep against host reference values, the
// out-of-memory check, sgemm through a MatMul node vs cublasSgemm at 4096^3 fp32, element-wise Add vs the
// device-to-device copy bandwidth, CUDA graph replay vs per-node launches, GPT-2/BERT-shaped whole graphs, the
// calibration figures, and (given a bundle directory) the ONNX conformance cases and light CNNs against both the
// ONNX expected outputs and the CPU backend's outputs on the same inputs.
// Usage: bench_cuda_backend [RLX_DATA_DIR [CONFORMANCE_BUNDLE_DIR]]
// Every figure is a ratio against a reference measured in the same run. Exit status 1 when a check fails.
#include "../engine/cuda_case_list.h"
#include "cuda_transformer_graphs.h"
#include "cpu/cpu_backend.h"
#include "cuda/cuda_backend.h"
#include "cuda/cuda_calibrate.h"
#include "cuda/cuda_plan.h"
#include "formats/rlx_json.h"
#include "measure.h"
#include "synthetic.h"

#include <nlohmann/json.hpp>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace costscope;

namespace {
int g_failures = 0;

void check(bool ok, const std::string& what)
{
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
    g_failures += ok ? 0 : 1;
}

std::unique_ptr<ExecutablePlan> compileOrReport(CudaBackend& be, const Graph& g, const std::string& what)
{
    auto plan = be.compile(g, {}, 0);
    if (!plan) {
        check(false, what + ": " + plan.error().message);
        return nullptr;
    }
    if (auto r = (*plan)->uploadParameters(); !r) {
        check(false, what + ": " + r.error().message);
        return nullptr;
    }
    return std::move(*plan);
}

void sweep(CudaBackend& be)
{
    for (const cudacases::Case& c : cudacases::allCases()) {
        auto plan = compileOrReport(be, c.graph, c.name);
        if (!plan)
            continue;
        (void)plan->setInputs(c.inputs);
        auto graphRun = plan->run(nullptr);
        auto graphOut = plan->readOutputs();
        auto timed = plan->runInstrumented(nullptr);
        auto timedOut = plan->readOutputs();
        auto* cudaPlan = dynamic_cast<cuda::CudaPlan*>(plan.get());
        auto eager = cudaPlan ? cudaPlan->runEager(nullptr) : Result<std::vector<NodeTiming>>(timed);
        auto eagerOut = plan->readOutputs();
        if (!graphRun || !graphOut || !timed || !timedOut || !eager || !eagerOut) {
            check(false, c.name + ": run failed");
            continue;
        }
        const double e1 = cudacases::maxError(graphOut->front(), c.expected);
        const double e2 = cudacases::maxError(timedOut->front(), c.expected);
        const double e3 = cudacases::maxError(eagerOut->front(), c.expected);
        check(std::max({e1, e2, e3}) <= c.tolerance,
              c.name + " (graph err " + std::to_string(e1) + ", timed graph err " + std::to_string(e2)
                  + ", per-node launches err " + std::to_string(e3) + ", tol " + std::to_string(c.tolerance) + ")");
    }
}

void outOfMemory(CudaBackend& be)
{
    cudacases::Builder b;
    auto x = b.input({1});
    auto huge = b.op(OpKind::Param, {}, {}, {std::int64_t(1) << 38}); // 2^38 floats = 1 TiB
    auto add = b.op(OpKind::Binary, cudacases::attrs({{"op", std::string("Add")}}), {x, huge}, {std::int64_t(1) << 38});
    auto plan = be.compile(b.finish(add), {}, 0);
    const std::string msg = plan ? std::string("compiled") : plan.error().message;
    check(!plan && msg.find("out of GPU memory allocating") != std::string::npos, "1 TiB tensor: " + msg);
    auto small = be.compile(cudacases::allCases().front().graph, {}, 0);
    check(bool(small), "a plan compiles after the out-of-memory error");
}

double medianSeconds(ExecutablePlan& plan, int runs)
{
    MeasureOptions o;
    o.timedRuns = runs;
    auto r = measure(plan, o);
    return r ? double(r->whole.medianNs) * 1e-9 : -1.0;
}

Graph matmulGraph(std::int64_t n)
{
    cudacases::Builder b;
    auto a = b.input({n, n});
    auto w = b.op(OpKind::Param, {}, {}, {n, n});
    return b.finish(b.op(OpKind::MatMul, {}, {a, w}, {n, n}));
}

void sgemm(int device)
{
    const std::int64_t n = 4096;
    float *a = nullptr, *b = nullptr, *c = nullptr;
    cudaMalloc(&a, n * n * 4);
    cudaMalloc(&b, n * n * 4);
    cudaMalloc(&c, n * n * 4);
    // cuBLAS is timed on the same kind of non-zero data as the MatMul node: zeros can run faster than real data.
    const std::vector<float> hostA = cudacases::values(std::size_t(n * n), 1);
    const std::vector<float> hostB = cudacases::values(std::size_t(n * n), 2);
    cudaMemcpy(a, hostA.data(), hostA.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hostB.data(), hostB.size() * 4, cudaMemcpyHostToDevice);
    cublasHandle_t h;
    cublasCreate(&h);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const float one = 1, zero = 0;
    std::vector<double> ref;
    for (int i = 0; i < 23; ++i) {
        cudaEventRecord(e0);
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, b, int(n), a, int(n), &zero, c, int(n));
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        if (i >= 3)
            ref.push_back(ms * 1e-3);
    }
    std::sort(ref.begin(), ref.end());
    const double flops = 2.0 * double(n) * n * n, refT = ref[ref.size() / 2];
    std::printf("cublasSgemm 4096^3 fp32: %.3f ms, %.1f TFLOP/s\n", refT * 1e3, flops / refT * 1e-12);
    for (auto p : {cuda::MatMulPrecision::F32, cuda::MatMulPrecision::TF32, cuda::MatMulPrecision::BF16}) {
        CudaBackend be({p});
        auto plan = compileOrReport(be, matmulGraph(n), "MatMul 4096");
        if (!plan)
            continue;
        (void)plan->setInputs({arangeInput({n, n}, DType::F32)});
        const double t = medianSeconds(*plan, 20);
        std::printf("MatMul node 4096^3 %s (graph replay + sync, wall): %.3f ms, %.1f TFLOP/s, %.3f x cublasSgemm\n",
                    cuda::precisionName(p).c_str(), t * 1e3, flops / t * 1e-12, refT / t);
        if (p == cuda::MatMulPrecision::F32)
            check(refT / t >= 0.95, "sgemm via MatMul node >= 95% of cublasSgemm");
    }
    cublasDestroy(h);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    (void)device;
}

void elementwise(CudaBackend& be, const CudaCalibration& cal)
{
    const std::int64_t n = std::int64_t(1) << 28; // 1 GiB per operand
    cudacases::Builder b;
    auto x = b.input({n});
    auto y = b.op(OpKind::Param, {}, {}, {n});
    auto add = b.op(OpKind::Binary, cudacases::attrs({{"op", std::string("Add")}}), {x, y}, {n});
    auto plan = compileOrReport(be, b.finish(add), "Add 2^28");
    if (!plan)
        return;
    (void)plan->setInputs({HostTensor({n}, DType::F32)});
    const double wall = medianSeconds(*plan, 20);
    std::vector<double> kernel;
    for (int i = 0; i < 10; ++i)
        if (auto t = plan->runInstrumented(nullptr); t && !t->empty())
            kernel.push_back(double(t->front().ns) * 1e-9);
    std::sort(kernel.begin(), kernel.end());
    const double bytes = 3.0 * double(n) * 4;
    const double kbw = bytes / kernel[kernel.size() / 2], wbw = bytes / wall;
    std::printf("D2D copy: %.0f GB/s (read + write)\n", cal.copyBytesPerSecond * 1e-9);
    std::printf("Binary.Add 2^28 floats: kernel %.0f GB/s = %.3f x copy; whole run (graph + sync) %.0f GB/s = %.3f x copy\n",
                kbw * 1e-9, kbw / cal.copyBytesPerSecond, wbw * 1e-9, wbw / cal.copyBytesPerSecond);
    check(kbw / cal.copyBytesPerSecond >= 0.85, "element-wise Add >= 85% of the device copy bandwidth");
}

// The outputs of a plan on the given inputs (parameters uploaded first).
Result<std::vector<HostTensor>> runPlan(ExecutablePlan& plan, const std::vector<HostTensor>& inputs)
{
    if (auto r = plan.uploadParameters(); !r)
        return r.error();
    if (auto r = plan.setInputs(inputs); !r)
        return r.error();
    if (auto r = plan.run(nullptr); !r)
        return r.error();
    return plan.readOutputs();
}

// A convolution whose column buffer exceeds the 4 GiB cap for the whole batch (VGG's second layer at batch 40:
// 4.6 GB): the lowering runs it in chunks of samples through im2col + cuBLAS. Checked against the CPU backend.
void chunkedConv(CudaBackend& be)
{
    const std::int64_t n = 40, ch = 64, hw = 224;
    cudacases::Builder b;
    auto x = b.input({n, ch, hw, hw});
    auto w = b.op(OpKind::Param, {}, {}, {ch, ch, 3, 3});
    auto bias = b.op(OpKind::Param, {}, {}, {ch});
    auto conv = b.op(OpKind::Conv, cudacases::attrs({{"padding", std::vector<std::int64_t>{1, 1}}}), {x, w, bias},
                     {n, ch, hw, hw});
    const Graph g = b.finish(conv);
    auto plan = compileOrReport(be, g, "Conv 40x64x224x224 3x3");
    if (!plan)
        return;
    const std::vector<HostTensor> inputs = {
        cudacases::tensor({n, ch, hw, hw}, cudacases::values(std::size_t(n * ch * hw * hw), 41))};
    (void)plan->setInputs(inputs);
    const double t = medianSeconds(*plan, 5);
    auto out = plan->readOutputs();
    CpuBackend cpu;
    auto cpuPlan = cpu.compile(g, {}, 0);
    auto cpuOut = cpuPlan ? runPlan(**cpuPlan, inputs) : Result<std::vector<HostTensor>>(cpuPlan.error());
    if (!out || !cpuOut || out->empty() || cpuOut->empty()) {
        check(false, "chunked Conv: run failed");
        return;
    }
    double worst = 0, scale = 0;
    for (std::uint64_t i = 0; i < cpuOut->front().elements(); ++i) {
        const double want = cpuOut->front().valueAsDouble(i), got = out->front().valueAsDouble(i);
        worst = std::isnan(got) ? INFINITY : std::max(worst, std::abs(got - want));
        scale = std::max(scale, std::abs(want));
    }
    const double flops = 2.0 * double(n) * ch * hw * hw * ch * 9;
    std::printf("Conv 40x64x224x224 3x3 (chunked im2col + cuBLAS): %.2f ms, %.1f TFLOP/s\n", t * 1e3,
                flops / t * 1e-12);
    char what[128];
    std::snprintf(what, sizeof what, "chunked Conv matches the CPU backend (max abs err %.3g, max |ref| %.3g)", worst,
                  scale);
    check(worst <= 1e-4 * std::max(scale, 1.0), what);
}

// 300 small element-wise nodes: what the CUDA graph removes is the per-launch overhead (unfused: the fusion pass
// would make the chain ten kernels).
void launchOverhead()
{
    CudaBackend be;
    be.setCompileOptions({false});
    cudacases::Builder b;
    NodeId cur = b.input({1024});
    auto p = b.op(OpKind::Param, {}, {}, {1024});
    for (int i = 0; i < 300; ++i)
        cur = b.op(OpKind::Binary, cudacases::attrs({{"op", std::string("Add")}}), {cur, p}, {1024});
    auto plan = compileOrReport(be, b.finish(cur), "300-node chain");
    if (!plan)
        return;
    (void)plan->setInputs({HostTensor({1024}, DType::F32)});
    const double graph = medianSeconds(*plan, 50);
    auto* cudaPlan = dynamic_cast<cuda::CudaPlan*>(plan.get());
    if (!cudaPlan)
        return;
    std::vector<double> eager;
    for (int i = 0; i < 20; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        (void)cudaPlan->runEager(nullptr);
        eager.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(eager.begin(), eager.end());
    std::printf("300 small Adds: CUDA graph replay %.1f us, per-node launches with events %.1f us (%.2f x)\n",
                graph * 1e6, eager[10] * 1e6, eager[10] / graph);
}

// Whole-graph times of the GPT-2/BERT-shaped graphs, to set against scripts/device_torch_baseline.py's PyTorch
// eager times of the same architecture (printed in the same log).
void transformers()
{
    for (auto p : {cuda::MatMulPrecision::F32, cuda::MatMulPrecision::TF32})
        for (bool causal : {true, false})
            for (std::int64_t batch : {1, 2, 8, 64}) {
                cudacases::TransformerConfig cfg;
                cfg.batch = batch;
                cfg.causal = causal;
                CudaBackend be({p});
                const std::string name = std::string(causal ? "gpt2" : "bert") + "_12l-shaped batch " + std::to_string(batch);
                auto plan = compileOrReport(be, cudacases::transformerGraph(cfg), name);
                if (!plan)
                    continue;
                (void)plan->setInputs({HostTensor({batch, cfg.seq}, DType::I64)});
                const double graph = medianSeconds(*plan, 50);
                std::int64_t kernels = 0;
                if (auto t = plan->runInstrumented(nullptr))
                    for (const NodeTiming& n : *t)
                        kernels += n.ns;
                std::printf("WHOLE %s %s: CUDA graph %.1f us per run (sum of per-node event times %.1f us)\n",
                            name.c_str(), cuda::precisionName(p).c_str(), graph * 1e6, double(kernels) * 1e-3);
            }
}

void rlxGraphs(CudaBackend& be, const std::string& dir)
{
    for (const char* name : {"mnist.hir.json", "cnn.hir.json"}) {
        std::ifstream file(dir + "/" + name);
        std::stringstream text;
        text << file.rdbuf();
        auto loaded = parseRlxJson(text.str());
        if (!loaded) {
            std::printf("SKIP %s: %s\n", name, loaded.error().message.c_str());
            continue;
        }
        auto plan = be.compile(*loaded, {}, 0);
        if (!plan) {
            std::printf("NOT RUN %s: %s\n", name, plan.error().message.c_str());
            continue;
        }
        (void)(*plan)->uploadParameters();
        std::vector<HostTensor> inputs;
        for (const PlanInput& in : (*plan)->inputs())
            inputs.push_back(arangeInput(in.dims, in.dtype));
        (void)(*plan)->setInputs(inputs);
        std::printf("%s on CUDA: %.1f us per run\n", name, medianSeconds(**plan, 50) * 1e6);
    }
}
std::string readText(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

HostTensor rawTensor(const std::string& dir, const nlohmann::json& spec)
{
    const std::string bytes = readText(dir + "/" + spec["file"].get<std::string>());
    return HostTensor::fromBytes(spec["dims"].get<std::vector<std::int64_t>>(),
                                 parseDType(spec["dtype"].get<std::string>()).value_or(DType::F32), bytes.data(),
                                 bytes.size());
}

// Worst |got - want| and whether every element is within atol + rtol |want| (rtol 1e-3; exact for integers and
// bools).
std::pair<bool, double> compare(const HostTensor& got, const HostTensor& want, double atol = 1e-5)
{
    if (got.dims() != want.dims() || got.dtype() != want.dtype())
        return {false, INFINITY};
    const bool exact = !isFloating(want.dtype());
    double worst = 0;
    bool ok = true;
    for (std::uint64_t i = 0; i < want.elements(); ++i) {
        const double g = got.valueAsDouble(i), w = want.valueAsDouble(i);
        if (std::isnan(g) || std::isnan(w)) {
            if (ok && std::isnan(g) != std::isnan(w))
                std::printf("  element %llu: got %g, want %g\n", static_cast<unsigned long long>(i), g, w);
            ok = ok && std::isnan(g) == std::isnan(w);
            continue;
        }
        const double err = std::abs(g - w);
        worst = std::max(worst, err);
        ok = ok && (exact ? err == 0 : err <= atol + 1e-3 * std::abs(w));
    }
    return {ok, worst};
}


// The light CNNs end in a Softmax whose expected output is uniform (their weights are constant fills), so the
// output alone says little: the Softmax input (the logits) is compared between the CUDA and CPU backends too.
void compareLogits(CudaBackend& be, CpuBackend& cpu, Graph g, const std::vector<HostTensor>& inputs,
                   const std::string& name)
{
    const Node* last = g.outputs.size() == 1 ? g.find(g.outputs.front()) : nullptr;
    if (!last || last->op.kind != OpKind::Softmax || last->inputs.empty())
        return;
    g.outputs = {last->inputs.front()};
    auto plan = be.compile(g, {}, 0);
    auto cpuPlan = cpu.compile(g, {}, 0);
    auto out = plan ? runPlan(**plan, inputs) : Result<std::vector<HostTensor>>(plan.error());
    auto cpuOut = cpuPlan ? runPlan(**cpuPlan, inputs) : Result<std::vector<HostTensor>>(cpuPlan.error());
    if (!out || !cpuOut || out->empty() || cpuOut->empty()) {
        const std::string why = !out ? out.error().message : !cpuOut ? cpuOut.error().message : "no output";
        check(false, name + " logits: " + why);
        return;
    }
    const HostTensor& want = cpuOut->front();
    double lo = INFINITY, hi = -INFINITY;
    for (std::uint64_t i = 0; i < want.elements(); ++i) {
        lo = std::min(lo, want.valueAsDouble(i));
        hi = std::max(hi, want.valueAsDouble(i));
    }
    const auto [ok, worst] = compare(out->front(), want);
    char figures[128];
    std::snprintf(figures, sizeof figures, " logits vs CPU backend (max abs err %.3g; CPU logits range %.6g .. %.6g)",
                  worst, lo, hi);
    check(ok, name + figures);
}

// A bundle case's graph with its packed parameter values.
Result<Graph> caseGraph(const std::string& dir, const nlohmann::json& c)
{
    auto g = parseRlxJson(readText(dir + "/" + c["graph"].get<std::string>()));
    if (g && c.contains("params"))
        for (Node& n : g->nodes)
            for (const auto& p : c["params"])
                if (n.op.kind == OpKind::Param && p["name"] == n.displayName()) {
                    const std::string bytes = readText(dir + "/" + p["file"].get<std::string>());
                    n.data = makeTensorData(std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
                }
    return g;
}

// A bundle case's packed inputs in the plan's order (arange(n)/n for inputs it does not pack).
std::vector<HostTensor> caseInputs(const std::string& dir, const nlohmann::json& c, const ExecutablePlan& plan)
{
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : plan.inputs()) {
        HostTensor t = arangeInput(in.dims, in.dtype);
        if (!c["inputs"].is_null())
            for (const auto& spec : c["inputs"])
                if (spec["name"] == in.name)
                    t = rawTensor(dir, spec);
        inputs.push_back(std::move(t));
    }
    return inputs;
}

// The exported gpt2_12l.onnx and bert_12l.onnx (bundle cases "transformers/..."; batch 2, as exported) timed by
// CUDA-graph replay in fp32 and tf32, to set against the PyTorch eager and ONNX Runtime times of
// scripts/device_torch_baseline.py at batch 2. Their outputs are checked in conformance().
void onnxTransformers(const std::string& dir)
{
    const auto manifest = nlohmann::json::parse(readText(dir + "/manifest.json"));
    for (const auto& c : manifest) {
        const std::string name = c["name"];
        if (!name.starts_with("transformers/") || c.contains("skip"))
            continue;
        auto g = caseGraph(dir, c);
        if (!g) {
            check(false, name + ": " + g.error().message);
            continue;
        }
        for (auto p : {cuda::MatMulPrecision::F32, cuda::MatMulPrecision::TF32}) {
            CudaBackend be({p});
            auto plan = compileOrReport(be, *g, name);
            if (!plan)
                continue;
            (void)plan->setInputs(caseInputs(dir, c, *plan));
            const double graph = medianSeconds(*plan, 50);
            std::int64_t kernels = 0;
            if (auto t = plan->runInstrumented(nullptr))
                for (const NodeTiming& n : *t)
                    kernels += n.ns;
            std::printf("WHOLE ONNX %s batch 2 %s: CUDA graph %.1f us per run (sum of per-node event times %.1f us)\n",
                        name.c_str(), cuda::precisionName(p).c_str(), graph * 1e6, double(kernels) * 1e-3);
        }
    }
}

// The ONNX conformance cases, light CNNs and exported transformers packed by
// scripts/make_cuda_conformance_bundle.py: each runs on the CUDA backend and on the CPU backend with the same
// inputs and parameters; the CUDA output is compared with the expected output (ONNX's, or ONNX Runtime's for the
// transformers, where the bundle has one) and with the CPU backend's (floats: atol 1e-5, rtol 1e-3; integers
// exact). Cases whose ops the CUDA backend lacks are counted, not failed; a mismatch with either reference fails.
void conformance(CudaBackend& be, const std::string& dir)
{
    const auto manifest = nlohmann::json::parse(readText(dir + "/manifest.json"));
    CpuBackend cpu;
    int matched = 0, mismatched = 0, notCompiled = 0, notPacked = 0, noExpected = 0;
    int cpuMatched = 0, cpuMismatched = 0, cpuNotRun = 0;
    for (const auto& c : manifest) {
        const std::string name = c["name"];
        if (c.contains("skip")) {
            ++notPacked;
            std::printf("NOT PACKED %s: %s\n", name.c_str(), c["skip"].get<std::string>().c_str());
            continue;
        }
        auto g = caseGraph(dir, c);
        auto plan = g ? be.compile(*g, {}, 0) : Result<std::unique_ptr<ExecutablePlan>>(g.error());
        if (!plan) {
            ++notCompiled;
            std::printf("NOT RUN %s: %s\n", name.c_str(), plan.error().message.c_str());
            continue;
        }
        const std::vector<HostTensor> inputs = caseInputs(dir, c, **plan);
        auto out = runPlan(**plan, inputs);
        if (!out || out->empty()) {
            ++mismatched;
            check(false, name + ": " + (out ? std::string("no output") : out.error().message));
            continue;
        }
        bool ok = true;
        char figures[96];
        std::string what = name;
        // 12-layer transformers accumulate float rounding differently from layer to layer: their bundle entries
        // state a wider absolute tolerance.
        const double atol = c.value("atol", 1e-5);
        if (c.contains("output")) {
            const auto [same, worst] = compare(out->front(), rawTensor(dir, c["output"]), atol);
            ok = same;
            ok ? ++matched : ++mismatched;
            std::snprintf(figures, sizeof figures, " (max abs err vs expected %.3g", worst);
            what += figures;
        } else {
            ++noExpected;
            what += " (no expected output";
        }
        bool cpuOk = true;
        auto cpuPlan = cpu.compile(*g, {}, 0);
        auto cpuOut = cpuPlan ? runPlan(**cpuPlan, inputs) : Result<std::vector<HostTensor>>(cpuPlan.error());
        if (cpuOut && !cpuOut->empty()) {
            const auto [same, worstCpu] = compare(out->front(), cpuOut->front(), atol);
            cpuOk = same;
            same ? ++cpuMatched : ++cpuMismatched;
            std::snprintf(figures, sizeof figures, ", vs CPU backend %.3g)", worstCpu);
            what += figures;
        } else {
            ++cpuNotRun;
            what += ", CPU backend did not run: " + (cpuOut ? std::string("no output") : cpuOut.error().message) + ")";
        }
        check(ok && cpuOk, what);
        if (c["inputs"].is_null())
            compareLogits(be, cpu, *g, inputs, name);
    }
    std::printf("conformance on CUDA vs expected: %d match, %d differ, %d not run (ops the backend lacks), %d not "
                "packed, %d without an expected output\n",
                matched, mismatched, notCompiled, notPacked, noExpected);
    std::printf("conformance on CUDA vs CPU backend: %d match, %d differ, %d not run on the CPU\n", cpuMatched,
                cpuMismatched, cpuNotRun);
}
} // namespace

int main(int argc, char** argv)
{
    CudaBackend be;
    const auto devices = be.devices();
    if (devices.empty()) {
        std::printf("no CUDA device\n");
        return 0;
    }
    for (const DeviceInfo& d : devices)
        std::printf("device %d: %s, %.1f GiB, %d SMs\n", d.index, d.name.c_str(), double(d.memoryBytes) / (1 << 30),
                    d.computeUnits);
    sweep(be);
    outOfMemory(be);
    auto cal = calibrateCuda(0);
    if (!cal) {
        check(false, "calibration: " + cal.error().message);
        return 1;
    }
    for (const auto& p : cal->sgemm)
        std::printf("calibration sgemm %lldx%lldx%lld: %.1f TFLOP/s\n", (long long)p.m, (long long)p.n,
                    (long long)p.k, p.flopsPerSecond * 1e-12);
    for (const auto& p : cal->conv)
        std::printf("calibration conv %s (implicit GEMM %lldx%lldx%lld): %.3f ms, %.1f TFLOP/s\n", p.shape.c_str(),
                    (long long)p.m, (long long)p.k, (long long)p.n, p.seconds * 1e3, p.flopsPerSecond * 1e-12);
    std::printf("calibration: copy %.0f GB/s, read %.0f GB/s, launch %.2f us, in-graph kernel %.2f us, launch+sync "
                "%.2f us, readback pinned %.1f GB/s, pageable %.1f GB/s\n",
                cal->copyBytesPerSecond * 1e-9, cal->readBytesPerSecond * 1e-9, cal->launchOverheadSeconds * 1e6,
                cal->graphKernelSeconds * 1e6, cal->launchSyncSeconds * 1e6, cal->pinnedReadbackBytesPerSecond * 1e-9,
                cal->pageableReadbackBytesPerSecond * 1e-9);
    sgemm(0);
    elementwise(be, *cal);
    launchOverhead();
    chunkedConv(be);
    transformers();
    if (argc > 1)
        rlxGraphs(be, argv[1]);
    if (argc > 2) {
        onnxTransformers(argv[2]);
        conformance(be, argv[2]);
    }
    std::printf("%d failures\n", g_failures);
    return g_failures ? 1 : 0;
}
