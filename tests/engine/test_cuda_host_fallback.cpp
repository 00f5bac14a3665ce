// SPDX-License-Identifier: MIT
// Host fallbacks of the CUDA backend (cuda/host_fallback.h): which nodes without a CUDA kernel run the CPU backend's
// kernel on the host, and why the others cannot, checked without a GPU; on a GPU, a graph mixing CUDA kernels with
// two host steps (CumSum, Trilu: ops the import keeps under their ONNX name) against the CPU backend in the CUDA
// graph replay, the per-node graph and node by node (runEager), the host step named in its label; a CPU kernel
// that gives another shape than the plan allocated fails the run naming the node; COSTSCOPE_CUDA_HOST_FALLBACK=0
// and an output shape unknown at compile time keep the compile error, which says why. The GPU cases skip cleanly
// where no GPU is present (CI).
#include "cuda_cases.h"

#ifdef COSTSCOPE_HAVE_CUDA
#include "cpu/cpu_backend.h"
#include "cuda/cuda_backend.h"
#include "cuda/cuda_plan.h"
#include "cuda/host_fallback.h"
#include "run_result.h"
#endif

#include <QTest>

#include <algorithm>

using namespace costscope;

class TestCudaHostFallback : public QObject {
    Q_OBJECT

private slots:
    void opsWithoutCudaKernelsFallBack();
    void refusalsSayWhy();
    void mixedGraphMatchesTheCpu();
    void wrongShapeFailsTheRun();
    void switchedOffOrUnknownShapeIsACompileError();
};

#ifdef COSTSCOPE_HAVE_CUDA
namespace {
Node onnxNode(const std::string& opType, std::size_t inputs, Attrs attrs = {})
{
    Node n;
    n.id = 10;
    n.op = Op::unknown(opType);
    n.op.attrs = std::move(attrs);
    for (std::size_t i = 0; i < inputs; ++i)
        n.inputs.push_back(NodeId(i + 1));
    n.shape = Shape::of({3, 4});
    return n;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

#define REQUIRE_GPU()                                                                                                  \
    do {                                                                                                               \
        if (CudaBackend().devices().empty())                                                                           \
            QSKIP("no CUDA device");                                                                                   \
    } while (0)

// x -> Add p -> CumSum along axis 1 -> Trilu -> Mul p: CUDA, host, host, CUDA. `cumSumDims`: the dims CumSum states.
struct Mixed {
    Graph graph;
    NodeId cumSum = 0, trilu = 0;
};
Mixed mixedGraph(std::vector<std::int64_t> cumSumDims = {3, 4})
{
    using namespace cudacases;
    Builder b;
    const auto x = b.input({3, 4});
    const auto p = b.param({3, 4}, values(12, 2));
    const auto add = b.op(OpKind::Binary, attrs({{"op", std::string("Add")}}), {x, p}, {3, 4});
    const auto axis = b.indices({}, {1});
    Mixed m;
    m.cumSum = b.op(OpKind::Unknown, {}, {add, axis}, cumSumDims);
    b.g.nodes.back().op = Op::unknown("CumSum");
    if (cumSumDims != std::vector<std::int64_t>{3, 4}) {
        m.graph = b.finish(m.cumSum);
        return m;
    }
    m.trilu = b.op(OpKind::Unknown, {}, {m.cumSum}, {3, 4});
    b.g.nodes.back().op = Op::unknown("Trilu");
    const auto mul = b.op(OpKind::Binary, attrs({{"op", std::string("Mul")}}), {m.trilu, p}, {3, 4});
    m.graph = b.finish(mul);
    return m;
}

Result<std::unique_ptr<ExecutablePlan>> prepared(Backend& backend, const Graph& g, const HostTensor& x)
{
    auto plan = backend.compile(g, {}, 0);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    if (auto r = (*plan)->setInputs({x}); !r)
        return r.error();
    return plan;
}

std::vector<float> flat(const HostTensor& t)
{
    auto v = t.values<float>();
    return {v.begin(), v.end()};
}
} // namespace

void TestCudaHostFallback::opsWithoutCudaKernelsFallBack()
{
    for (const char* op : {"CumSum", "Trilu", "ArgMax", "Einsum"}) {
        const Node n = onnxNode(op, 2);
        QVERIFY2(!cuda::cudaLowers(n), op);
        QVERIFY2(!cuda::hostFallbackRefusal(n, true, true), op);
    }
    // A second output the CPU backend computes node by node, as its own plan does.
    const Node indices = onnxNode("TopK", 2, cudacases::attrs({{"onnx_output", std::int64_t(1)}}));
    QVERIFY(!cuda::hostFallbackRefusal(indices, true, true));
    // A kind of the catalogue with a CPU kernel and no CUDA lowering.
    Node logMel = onnxNode("", 1);
    logMel.op = Op::make(OpKind::LogMel);
    QVERIFY(!cuda::cudaLowers(logMel));
    QVERIFY(!cuda::hostFallbackRefusal(logMel, true, true));
    // What CUDA runs itself never falls back.
    QVERIFY(cuda::cudaLowers(onnxNode("GatherND", 2)));
    Node add = onnxNode("", 2, cudacases::attrs({{"op", std::string("Add")}}));
    add.op.kind = OpKind::Binary;
    QVERIFY(cuda::cudaLowers(add));
}

void TestCudaHostFallback::refusalsSayWhy()
{
    const Node cumSum = onnxNode("CumSum", 2);
    auto off = cuda::hostFallbackRefusal(cumSum, true, false);
    QVERIFY(off && contains(*off, "COSTSCOPE_CUDA_HOST_FALLBACK=0"));
    auto unknownShape = cuda::hostFallbackRefusal(cumSum, false, true);
    QVERIFY(unknownShape && contains(*unknownShape, "output shape is not known"));
    auto noKernel = cuda::hostFallbackRefusal(onnxNode("NoSuchOp", 1), true, true);
    QVERIFY(noKernel && contains(*noKernel, "CPU backend cannot run it either"));
    auto otherDomain = cuda::hostFallbackRefusal(
        onnxNode("CumSum", 2, cudacases::attrs({{"onnx_domain", std::string("com.x")}})), true, true);
    QVERIFY(otherDomain && contains(*otherDomain, "CPU backend cannot run it either"));
    auto secondOutput = cuda::hostFallbackRefusal(
        onnxNode("Trilu", 1, cudacases::attrs({{"onnx_output", std::int64_t(1)}})), true, true);
    QVERIFY(secondOutput && contains(*secondOutput, "only output 0"));
    Node loop = onnxNode("Loop", 2);
    loop.subgraphs.push_back({"body", std::make_shared<Graph>(), {}});
    auto controlFlow = cuda::hostFallbackRefusal(loop, true, true);
    QVERIFY(controlFlow && contains(*controlFlow, "subgraphs"));
}

void TestCudaHostFallback::mixedGraphMatchesTheCpu()
{
    REQUIRE_GPU();
    const Mixed m = mixedGraph();
    CpuBackend cpu(1);
    CudaBackend gpu;
    auto x = cudacases::tensor({3, 4}, cudacases::values(12, 5));
    auto ref = prepared(cpu, m.graph, x);
    QVERIFY2(ref, ref ? "" : ref.error().message.c_str());
    auto plan = prepared(gpu, m.graph, x);
    QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
    auto* cudaPlan = dynamic_cast<cuda::CudaPlan*>(plan->get());
    QVERIFY(cudaPlan);
    for (int round = 0; round < 2; ++round) { // new inputs through the same captured graphs
        QVERIFY((*ref)->run(nullptr));
        auto want = (*ref)->readOutputs();
        QVERIFY(want);
        auto run = (*plan)->run(nullptr);
        QVERIFY2(run, run ? "" : run.error().message.c_str());
        QVERIFY2(cudacases::maxError((*plan)->readOutputs()->front(), flat(want->front())) <= 1e-5, "graph replay");
        auto timed = (*plan)->runInstrumented(nullptr);
        QVERIFY2(timed, timed ? "" : timed.error().message.c_str());
        QVERIFY2(cudacases::maxError((*plan)->readOutputs()->front(), flat(want->front())) <= 1e-5, "per-node graph");
        QCOMPARE(int(std::count_if(timed->begin(), timed->end(), ranOnHost)), 2);
        for (const NodeTiming& t : *timed)
            if (t.node == m.cumSum)
                QCOMPARE(t.label, std::string("CumSum[host fallback: CPU kernel]"));
        auto eager = cudaPlan->runEager(nullptr);
        QVERIFY2(eager, eager ? "" : eager.error().message.c_str());
        QVERIFY2(cudacases::maxError((*plan)->readOutputs()->front(), flat(want->front())) <= 1e-5, "node by node");
        x = cudacases::tensor({3, 4}, cudacases::values(12, 9));
        QVERIFY((*ref)->setInputs({x}));
        QVERIFY((*plan)->setInputs({x}));
    }
}

void TestCudaHostFallback::wrongShapeFailsTheRun()
{
    REQUIRE_GPU();
    const Mixed m = mixedGraph({3, 5}); // CumSum states 3x5, its kernel gives 3x4
    CudaBackend gpu;
    auto plan = prepared(gpu, m.graph, cudacases::tensor({3, 4}, cudacases::values(12, 5)));
    QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
    for (int round = 0; round < 2; ++round) { // each run reports its own failure
        auto run = (*plan)->run(nullptr);
        QVERIFY(!run);
        QCOMPARE(run.error().node.value_or(0), m.cumSum);
        QVERIFY2(contains(run.error().message, "F32[3,4] where the plan allocated F32[3,5]"),
                 run.error().message.c_str());
    }
    QVERIFY(!(*plan)->runInstrumented(nullptr));
}

void TestCudaHostFallback::switchedOffOrUnknownShapeIsACompileError()
{
    REQUIRE_GPU();
    const Mixed m = mixedGraph();
    qputenv("COSTSCOPE_CUDA_HOST_FALLBACK", "0");
    auto off = CudaBackend().compile(m.graph, {}, 0);
    qunsetenv("COSTSCOPE_CUDA_HOST_FALLBACK");
    QVERIFY(!off);
    QCOMPARE(off.error().node.value_or(0), m.cumSum);
    QVERIFY2(contains(off.error().message, "cannot run op CumSum")
                 && contains(off.error().message, "COSTSCOPE_CUDA_HOST_FALLBACK=0"),
             off.error().message.c_str());
    Graph unbound = m.graph;
    for (Node& n : unbound.nodes)
        if (n.id == m.cumSum)
            n.shape.dims[1] = Dim::named("n");
    auto unknown = CudaBackend().compile(unbound, {}, 0);
    QVERIFY(!unknown);
    QVERIFY2(contains(unknown.error().message, "output shape is not known")
                 && contains(unknown.error().message, "'n' is not bound"),
             unknown.error().message.c_str());
}
#else
void TestCudaHostFallback::opsWithoutCudaKernelsFallBack()
{
    QSKIP("built without CUDA");
}
void TestCudaHostFallback::refusalsSayWhy()
{
    QSKIP("built without CUDA");
}
void TestCudaHostFallback::mixedGraphMatchesTheCpu()
{
    QSKIP("built without CUDA");
}
void TestCudaHostFallback::wrongShapeFailsTheRun()
{
    QSKIP("built without CUDA");
}
void TestCudaHostFallback::switchedOffOrUnknownShapeIsACompileError()
{
    QSKIP("built without CUDA");
}
#endif

QTEST_GUILESS_MAIN(TestCudaHostFallback)
#include "test_cuda_host_fallback.moc"
