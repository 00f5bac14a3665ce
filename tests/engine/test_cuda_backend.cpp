// SPDX-License-Identifier: MIT
// The CUDA backend against host reference values, one or two graphs per op family (cuda_case_list.h), in both
// timing modes (CUDA graph replay and per-node events); out-of-memory and unsupported ops as error values; fused
// kernels (engine/fusion_plan.h) against the same graph unfused; bf16 attention on cuDNN's SDPA and on our kernels
// (COSTSCOPE_CUDNN=off), each against the reference, with the kernel named in the node's label; bf16 and F32
// attention reading q, k and v in place from the packed QKV tensor (engine/qkv_views.h) against the same graph with
// the slices copied.
// Skips cleanly where no GPU is present (CI).
#include "../bench/cuda_transformer_graphs.h"
#include "cuda_attention_cases.h"
#include "cuda_case_list.h"
#include "edit/precision_transform.h"
#include "half.h"
#include "measure.h"

#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

#include <QTest>

#include <cmath>
#include <cstdlib>

using namespace costscope;

class TestCudaBackend : public QObject {
    Q_OBJECT

private slots:
    void opCases_data();
    void opCases();
    void outOfMemoryIsAnError();
    void unsupportedOpNamesTheNode();
    void timingsNameThePrecision();
    void fusedKernelsMatchUnfused();
    void sixteenBitAttentionNamesItsKernel();
    void qkvViewsMatchTheCopies();
    void noDeviceIsAnErrorValue();
};

static bool haveGpuOrSkip()
{
#ifdef COSTSCOPE_HAVE_CUDA
    return !CudaBackend().devices().empty();
#else
    return false;
#endif
}

#define REQUIRE_GPU()                                                                                                  \
    do {                                                                                                               \
        if (!haveGpuOrSkip())                                                                                          \
            QSKIP("no CUDA device");                                                                                   \
    } while (0)

void TestCudaBackend::opCases_data()
{
    QTest::addColumn<int>("index");
    const auto cases = cudacases::allCases();
    for (std::size_t i = 0; i < cases.size(); ++i)
        QTest::newRow(cases[i].name.c_str()) << int(i);
}

void TestCudaBackend::opCases()
{
    REQUIRE_GPU();
#ifdef COSTSCOPE_HAVE_CUDA
    QFETCH(int, index);
    const cudacases::Case c = cudacases::allCases()[std::size_t(index)];
    CudaBackend be;
    auto plan = be.compile(c.graph, {}, 0);
    QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
    QVERIFY((*plan)->uploadParameters());
    QVERIFY((*plan)->setInputs(c.inputs));
    QVERIFY((*plan)->run(nullptr));
    auto out = (*plan)->readOutputs();
    QVERIFY(out);
    QVERIFY2(cudacases::maxError(out->front(), c.expected) <= c.tolerance, "graph replay differs from the reference");
    QVERIFY((*plan)->runInstrumented(nullptr));
    out = (*plan)->readOutputs();
    QVERIFY2(cudacases::maxError(out->front(), c.expected) <= c.tolerance, "per-node run differs from the reference");
#endif
}

void TestCudaBackend::outOfMemoryIsAnError()
{
    REQUIRE_GPU();
#ifdef COSTSCOPE_HAVE_CUDA
    cudacases::Builder b;
    auto x = b.input({1});
    auto huge = b.op(OpKind::Param, {}, {}, {std::int64_t(1) << 38}); // 1 TiB of floats
    auto add = b.op(OpKind::Binary, cudacases::attrs({{"op", std::string("Add")}}), {x, huge}, {std::int64_t(1) << 38});
    CudaBackend be;
    auto plan = be.compile(b.finish(add), {}, 0);
    QVERIFY(!plan);
    QVERIFY2(plan.error().message.find("out of GPU memory allocating 1099511627776 bytes for node 2")
                 != std::string::npos,
             plan.error().message.c_str());
    QVERIFY(be.compile(cudacases::allCases().front().graph, {}, 0));
#endif
}

void TestCudaBackend::unsupportedOpNamesTheNode()
{
    REQUIRE_GPU();
#ifdef COSTSCOPE_HAVE_CUDA
    cudacases::Builder b;
    auto x = b.input({4});
    auto clip = b.op(OpKind::Clip, {}, {x}, {4});
    CudaBackend be;
    auto plan = be.compile(b.finish(clip), {}, 0);
    QVERIFY(!plan);
    QCOMPARE(plan.error().node.value_or(0), clip);
    QVERIFY(plan.error().message.find("cannot run op Clip") != std::string::npos);
#endif
}

// The GPT-2-shaped graph (cuda_transformer_graphs.h) at batch 2 in element-wise nodes, with attention written out as
// an ONNX export writes it where `exported`.
static cudacases::TransformerConfig decomposedAtBatchTwo(std::int64_t layers, bool exported)
{
    cudacases::TransformerConfig c;
    c.layers = layers;
    c.batch = 2;
    c.decomposed = true;
    c.exportedAttention = exported;
    return c;
}

void TestCudaBackend::fusedKernelsMatchUnfused()
{
    REQUIRE_GPU();
#ifdef COSTSCOPE_HAVE_CUDA
    const cudacases::TransformerConfig config = decomposedAtBatchTwo(1, false);
    const Graph g = cudacases::transformerGraph(config);
    const HostTensor ids({config.batch, config.seq}, DType::I64);
    std::vector<std::vector<HostTensor>> outputs;
    std::vector<NodeTiming> fusedTimings;
    for (bool fusion : {true, false}) {
        CudaBackend be;
        be.setCompileOptions({fusion});
        auto plan = preparePlan(be, g, {}, 0, {ids});
        QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
        auto timings = (*plan)->runInstrumented(nullptr);
        QVERIFY(timings);
        if (fusion)
            fusedTimings = *timings;
        auto out = (*plan)->readOutputs();
        QVERIFY(out);
        outputs.push_back(std::move(*out));
    }
    const auto span = outputs[1].front().values<float>();
    const std::vector<float> unfused(span.begin(), span.end());
    QVERIFY(cudacases::maxError(outputs[0].front(), unfused) <= 1e-4);
    int elementWise = 0, epilogues = 0;
    for (const NodeTiming& t : fusedTimings) {
        elementWise += t.label.rfind("fused_elementwise(", 0) == 0 && !t.fused.empty();
        epilogues += t.label.rfind("cublasLt[fp32](MatMul+", 0) == 0 && !t.fused.empty();
    }
    QCOMPARE(elementWise, 1); // the spelt-out GELU
    QCOMPARE(epilogues, 4);   // QKV, output projection + residual, both MLP layers
#endif
}

void TestCudaBackend::timingsNameThePrecision()
{
    REQUIRE_GPU();
#ifdef COSTSCOPE_HAVE_CUDA
    const cudacases::Case c = cudacases::matmulCases().front();
    CudaBackend be({cuda::MatMulPrecision::TF32});
    auto plan = be.compile(c.graph, {}, 0);
    QVERIFY(plan);
    QVERIFY((*plan)->uploadParameters());
    QVERIFY((*plan)->setInputs(c.inputs));
    auto timings = (*plan)->runInstrumented(nullptr);
    QVERIFY(timings);
    QCOMPARE(timings->size(), std::size_t(1));
    QCOMPARE(timings->front().label, std::string("MatMul[tf32]"));
    // TF32 rounds the operands to 10-bit mantissas: close to, not equal to, the fp32 reference.
    auto out = (*plan)->readOutputs();
    QVERIFY(cudacases::maxError(out->front(), c.expected) <= 1e-2);
#endif
}

void TestCudaBackend::sixteenBitAttentionNamesItsKernel()
{
    REQUIRE_GPU();
#ifdef COSTSCOPE_HAVE_CUDA
    for (const cudacases::Case& c : cudacases::perHeadAttentionCases()) {
        auto g = edit::withPrecision(c.graph, Precision::Bf16);
        QVERIFY2(g, c.name.c_str());
        std::vector<HostTensor> inputs;
        for (const HostTensor& t : c.inputs) {
            HostTensor narrow(t.dims(), DType::BF16);
            for (std::uint64_t i = 0; i < t.elements(); ++i)
                narrow.values<std::uint16_t>()[i] = floatToBf16(t.values<float>()[i]);
            inputs.push_back(std::move(narrow));
        }
        for (bool cudnn : {true, false}) {
            if (!cudnn)
                setenv("COSTSCOPE_CUDNN", "off", 1);
            auto plan = CudaBackend().compile(*g, {}, 0);
            unsetenv("COSTSCOPE_CUDNN");
            QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
            QVERIFY((*plan)->uploadParameters());
            QVERIFY((*plan)->setInputs(inputs));
            QVERIFY((*plan)->run(nullptr));
            auto timings = (*plan)->runInstrumented(nullptr);
            QVERIFY(timings && timings->size() == 1);
            const std::string label = timings->front().label;
            qInfo("%s: %s", c.name.c_str(), label.c_str());
            if (cudnn)
                QVERIFY2(label == "Attention[cudnn_sdpa]" || label.rfind("Attention[ours: ", 0) == 0, label.c_str());
            else
                QCOMPARE(label, std::string("Attention[ours: COSTSCOPE_CUDNN=off]"));
            auto out = (*plan)->readOutputs();
            QVERIFY(out);
            HostTensor wide(out->front().dims(), DType::F32);
            for (std::uint64_t i = 0; i < wide.elements(); ++i)
                wide.values<float>()[i] = float(out->front().valueAsDouble(i));
            // bf16 inputs and result (unit roundoff 2^-8) against the fp32 reference on the unrounded inputs.
            const double err = cudacases::maxError(wide, c.expected);
            QVERIFY2(err <= 0.03, (c.name + " via " + label + ": error " + std::to_string(err)).c_str());
        }
    }
#endif
}

void TestCudaBackend::qkvViewsMatchTheCopies()
{
    REQUIRE_GPU();
#ifdef COSTSCOPE_HAVE_CUDA
    // Two GPT-2 layers as an export writes attention (Split as Narrow, Reshape, Transpose), in bf16 and in F32: with
    // views (the default) no Narrow runs and the attention reads q, k and v in place (cuDNN's SDPA in bf16, our
    // kernels in F32 or with cuDNN off); with COSTSCOPE_CUDA_QKV_VIEWS=0 the six Narrows run. The outputs agree
    // within bf16 rounding, or in F32 within 1e-5 (the same arithmetic; cuBLASLt's timed choice of algorithm may
    // differ between plans); a wrong stride is off by O(1).
    const cudacases::TransformerConfig config = decomposedAtBatchTwo(2, true);
    const HostTensor ids({config.batch, config.seq}, DType::I64);
    struct Mode {
        const char* name;
        bool views, cudnn;
        int narrows;
    };
    for (Precision p : {Precision::Bf16, Precision::Fp32}) {
        auto g = edit::withPrecision(cudacases::transformerGraph(config), p);
        QVERIFY(g);
        const double tolerance = p == Precision::Bf16 ? 0.02 : 1e-5;
        std::vector<HostTensor> reference;
        for (const Mode& m :
             {Mode{"copies", false, true, 6}, Mode{"views", true, true, 0}, Mode{"cudnn off", true, false, 0}}) {
            if (!m.views)
                setenv("COSTSCOPE_CUDA_QKV_VIEWS", "0", 1);
            if (!m.cudnn)
                setenv("COSTSCOPE_CUDNN", "off", 1);
            CudaBackend be;
            auto plan = preparePlan(be, *g, {}, 0, {ids});
            unsetenv("COSTSCOPE_CUDA_QKV_VIEWS");
            unsetenv("COSTSCOPE_CUDNN");
            QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
            auto timings = (*plan)->runInstrumented(nullptr);
            QVERIFY(timings);
            int narrows = 0;
            std::string attention;
            for (const NodeTiming& t : *timings) {
                narrows += t.label.rfind("Narrow", 0) == 0 ? 1 : 0;
                if (t.label.rfind("attention", 0) == 0 && attention.empty())
                    attention = t.label.substr(0, t.label.find('('));
            }
            qInfo("%s %s: %d Narrow kernel(s), %s", std::string(precisionName(p)).c_str(), m.name, narrows,
                  attention.c_str());
            QCOMPARE(narrows, m.narrows);
            QCOMPARE(attention.find("qkv in place") != std::string::npos, m.views);
            auto out = (*plan)->readOutputs();
            QVERIFY(out && !out->empty());
            if (reference.empty()) {
                reference = std::move(*out);
                continue;
            }
            double diff = 0, norm = 0;
            for (std::uint64_t i = 0; i < reference.front().elements(); ++i) {
                const double w = reference.front().valueAsDouble(i), d = out->front().valueAsDouble(i) - w;
                diff += d * d;
                norm += w * w;
            }
            QVERIFY2(norm > 0 && std::sqrt(diff / norm) <= tolerance,
                     (std::string(m.name) + ": normwise difference " + std::to_string(std::sqrt(diff / norm))).c_str());
        }
    }
#endif
}

void TestCudaBackend::noDeviceIsAnErrorValue()
{
#ifdef COSTSCOPE_HAVE_CUDA
    if (haveGpuOrSkip())
        QSKIP("a CUDA device is present");
    auto plan = CudaBackend().compile(cudacases::allCases().front().graph, {}, 0);
    QVERIFY(!plan);
    QVERIFY2(plan.error().message.rfind("no CUDA device: ", 0) == 0, plan.error().message.c_str());
#else
    QSKIP("built without CUDA");
#endif
}

QTEST_GUILESS_MAIN(TestCudaBackend)
#include "test_cuda_backend.moc"
