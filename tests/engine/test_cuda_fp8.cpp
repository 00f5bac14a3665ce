// SPDX-License-Identifier: MIT
// fp8 GEMMs on the CUDA backend: which nodes run as cuBLASLt FP8 products and in which layout (cuda/fp8_dispatch.h,
// cuda/narrow_native.h), checked without a GPU; and, where a GPU of compute capability 8.9 or newer is present, an
// fp8 MatMul against the CPU backend (which runs it by conversion). bench_cuda_sixteen_bit's fp8 block checks the
// transformer shapes and times them on the GPU machine.
#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/cuda_backend.h"
#include "cuda/fp8_dispatch.h"
#include "cuda/lower_fp8_matmul.h"
#include "cuda/narrow_native.h"
#endif
#include "cpu/cpu_backend.h"
#include "cuda_cases.h"
#include "ir/float_narrow.h"
#include "measure.h"
#include "narrow_float_casts.h"

#include <QTest>

#include <cmath>

using namespace costscope;

class TestCudaFp8 : public QObject {
    Q_OBJECT

private slots:
    void init();
    void layoutOfMatMulAndGemm();
    void refusalsSayWhy();
    void olderGpusAndLibraryRefusalsWiden();
    void onlyAcceptedGemmsKeepFp8();
    void matmulMatchesTheCpuBackend();
};

void TestCudaFp8::init()
{
#ifndef COSTSCOPE_HAVE_CUDA
    QSKIP("built without CUDA");
#endif
}

#ifdef COSTSCOPE_HAVE_CUDA
namespace {
Node gemmNode(OpKind kind, DType out, Attrs attrs = {})
{
    Node n;
    n.id = 7;
    n.op = Op::make(kind, std::move(attrs));
    n.shape.dtype = out;
    return n;
}

// x [m, k] · w [k, n] (a weight with data), both `t`, the product in `out`, then `+ x·w` again (an op on fp8 that
// runs in F32): the graph the rules below see.
Graph fp8MatMul(std::int64_t m, std::int64_t k, std::int64_t n, DType t, DType out)
{
    cudacases::Builder b;
    const NodeId x = b.input({m, k}, t);
    std::vector<float> w = cudacases::values(std::size_t(k * n), 3);
    const NodeId wid = b.param({k, n}, w);
    Node& wn = *b.g.find(wid);
    wn.shape.dtype = t;
    std::vector<std::uint8_t> bytes;
    for (float v : w)
        bytes.push_back(t == DType::F8E4M3 ? floatToE4M3Bits(v) : floatToE5M2Bits(v));
    wn.data = makeTensorData(std::move(bytes));
    const NodeId y = b.op(OpKind::MatMul, {}, {x, wid}, {m, n}, out);
    return b.finish(y);
}
} // namespace

void TestCudaFp8::layoutOfMatMulAndGemm()
{
    using cuda::fp8GemmLayout;
    const DType e4 = DType::F8E4M3, e5 = DType::F8E5M2;
    // A transformer's linear layer: B stored [k, n] is copied transposed (the "TN" layout).
    auto linear = fp8GemmLayout(gemmNode(OpKind::MatMul, DType::BF16), {2048, 768}, e4, {768, 3072}, e4, 2);
    QVERIFY2(linear, linear ? "" : linear.error().message.c_str());
    QCOMPARE(linear->gemm.m, 2048);
    QCOMPARE(linear->gemm.k, 768);
    QCOMPARE(linear->gemm.n, 3072);
    QCOMPARE(linear->batch, 1);
    QVERIFY(linear->copyB && !linear->transA);
    // A batch over a shared weight folds into m; a batch of both runs strided-batched.
    auto folded = fp8GemmLayout(gemmNode(OpKind::MatMul, e4), {4, 64, 32}, e4, {32, 48}, e5, 2);
    QVERIFY(folded);
    QCOMPARE(folded->gemm.m, 256);
    QCOMPARE(folded->batch, 1);
    // An fp8 result is asked of cuBLASLt in F32 (then rounded by a Cast): it has no fp8 D without scale pointers.
    QCOMPARE(cuda::fp8ProductOf(*folded).out, CUDA_R_32F);
    QCOMPARE(cuda::fp8ProductOf(*folded).a, CUDA_R_8F_E4M3);
    QCOMPARE(cuda::fp8ProductOf(*linear).out, CUDA_R_16BF);
    auto batched = fp8GemmLayout(gemmNode(OpKind::MatMul, DType::F32), {4, 64, 32}, e5, {4, 32, 48}, e4, 2);
    QVERIFY(batched);
    QCOMPARE(batched->gemm.m, 64);
    QCOMPARE(batched->batch, 4);
    // Gemm with trans_b = 1 (weights stored [n, k], as nn.Linear's are) reads B as it is; trans_a copies A.
    Attrs t;
    t.set("trans_b", std::int64_t(1));
    t.set("trans_a", std::int64_t(1));
    t.set("alpha", 0.5);
    auto gemm = fp8GemmLayout(gemmNode(OpKind::Gemm, DType::F16, t), {32, 64}, e4, {48, 32}, e4, 2);
    QVERIFY2(gemm, gemm ? "" : gemm.error().message.c_str());
    QCOMPARE(gemm->gemm.m, 64);
    QCOMPARE(gemm->gemm.n, 48);
    QCOMPARE(gemm->gemm.k, 32);
    QVERIFY(!gemm->copyB && gemm->transA);
    QCOMPARE(gemm->alpha, 0.5f);
    QCOMPARE(cuda::fp8GemmName(e4, e5, DType::BF16), std::string("fp8 F8E4M3xF8E5M2->BF16"));
}

void TestCudaFp8::refusalsSayWhy()
{
    using cuda::fp8GemmLayout;
    const DType e4 = DType::F8E4M3, e5 = DType::F8E5M2;
    auto why = [](const Result<cuda::Fp8GemmLayout>& r) { return r ? std::string() : r.error().message; };
    const Node mm = gemmNode(OpKind::MatMul, DType::BF16);
    QCOMPARE(why(fp8GemmLayout(mm, {64, 64}, e5, {64, 64}, e5, 2)),
             std::string("cuBLASLt has no F8E5M2 x F8E5M2 product"));
    QCOMPARE(why(fp8GemmLayout(mm, {100, 64}, e4, {64, 64}, e4, 2)),
             std::string("m = 100 is not a positive multiple of 16"));
    QCOMPARE(why(fp8GemmLayout(mm, {64, 40}, e4, {40, 64}, e4, 2)),
             std::string("k = 40 is not a positive multiple of 16"));
    QVERIFY(why(fp8GemmLayout(mm, {64, 64}, e4, {64, 64}, DType::F32, 2)).find("not both fp8") != std::string::npos);
    QVERIFY(why(fp8GemmLayout(mm, {64, 64}, e4, {2, 64, 64}, e4, 2)).find("broadcast") != std::string::npos);
    QVERIFY(why(fp8GemmLayout(gemmNode(OpKind::MatMul, DType::I32), {64, 64}, e4, {64, 64}, e4, 2)).find("writes I32")
            != std::string::npos);
    QVERIFY(why(fp8GemmLayout(gemmNode(OpKind::FusedMatMulBiasAct, DType::BF16), {64, 64}, e4, {64, 64}, e4, 3))
                .find("epilogue")
            != std::string::npos);
    // Gemm's C is refused unless beta is 0.
    const Node gemm = gemmNode(OpKind::Gemm, DType::BF16);
    QVERIFY(why(fp8GemmLayout(gemm, {64, 64}, e4, {64, 64}, e4, 3)).find("C input") != std::string::npos);
    Attrs zero;
    zero.set("beta", 0.0);
    QVERIFY(fp8GemmLayout(gemmNode(OpKind::Gemm, DType::BF16, zero), {64, 64}, e4, {64, 64}, e4, 3));
}

void TestCudaFp8::olderGpusAndLibraryRefusalsWiden()
{
    const Graph g = fp8MatMul(64, 64, 64, DType::F8E4M3, DType::BF16);
    const NodeId mm = g.outputs.front();
    auto ampere = cuda::fp8GemmFallbacks(g, {}, 80, nullptr);
    QCOMPARE(ampere.size(), std::size_t(1));
    QCOMPARE(ampere.at(mm), std::string("compute capability 8.0 has no FP8 tensor cores (8.9 and up)"));
    QVERIFY(cuda::fp8GemmFallbacks(g, {}, 90, nullptr).empty());
    auto refused = cuda::fp8GemmFallbacks(g, {}, 90, [](const cuda::Fp8GemmLayout& l) {
        return std::optional<std::string>("no algorithm for m " + std::to_string(l.gemm.m));
    });
    QCOMPARE(refused.at(mm), std::string("no algorithm for m 64"));
}

void TestCudaFp8::onlyAcceptedGemmsKeepFp8()
{
    const Graph g = fp8MatMul(64, 64, 64, DType::F8E4M3, DType::F8E4M3);
    const NodeId mm = g.outputs.front();
    // Accepted: the MatMul reads the fp8 input and weight as they are and writes fp8; no Cast anywhere.
    const Graph native = withNarrowFloatCasts(g, cuda::narrowNativeRule({}));
    QCOMPARE(native.nodes.size(), g.nodes.size());
    QCOMPARE(native.find(mm)->shape.dtype, DType::F8E4M3);
    for (NodeId in : native.find(mm)->inputs)
        QCOMPARE(native.find(in)->shape.dtype, DType::F8E4M3);
    // Refused: the MatMul runs in F32, its weight widened in place, the input cast, the output cast back to fp8.
    const Graph widened = withNarrowFloatCasts(g, cuda::narrowNativeRule({{mm, "test"}}));
    QCOMPARE(widened.find(mm)->shape.dtype, DType::F32);
    for (NodeId in : widened.find(mm)->inputs)
        QCOMPARE(widened.find(in)->shape.dtype, DType::F32);
    QCOMPARE(widened.find(widened.outputs.front())->op.kind, OpKind::Cast);
    QCOMPARE(widened.find(widened.outputs.front())->shape.dtype, DType::F8E4M3);
}

void TestCudaFp8::matmulMatchesTheCpuBackend()
{
    CudaBackend cuda;
    if (cuda.devices().empty())
        QSKIP("no CUDA device");
    for (DType out : {DType::BF16, DType::F32, DType::F8E4M3}) {
        const Graph g = fp8MatMul(64, 128, 96, DType::F8E4M3, out);
        HostTensor x({64, 128}, DType::F8E4M3);
        for (std::uint64_t i = 0; i < x.elements(); ++i)
            x.values<std::uint8_t>()[i] = floatToE4M3Bits(float(std::sin(0.37 * double(i) + 0.1)));
        CpuBackend cpu;
        auto got = preparePlan(cuda, g, {}, 0, {x});
        auto want = preparePlan(cpu, g, {}, 0, {x});
        QVERIFY2(got, got ? "" : got.error().message.c_str());
        QVERIFY(want);
        QVERIFY((*got)->run(nullptr));
        QVERIFY((*want)->run(nullptr));
        auto a = (*got)->readOutputs();
        auto b = (*want)->readOutputs();
        QVERIFY(a && b);
        // Exact fp8 products summed in F32 either way; the results differ by the order of the sums and, where the
        // output is narrow, by an ulp of it where that order crosses a rounding boundary.
        const double ulp = out == DType::F8E4M3 ? 0x1p-3 : out == DType::BF16 ? 0x1p-7 : 0x1p-20;
        double diff = 0, norm = 0;
        for (std::uint64_t i = 0; i < b->front().elements(); ++i) {
            const double g1 = a->front().valueAsDouble(i), w = b->front().valueAsDouble(i);
            diff += (g1 - w) * (g1 - w);
            norm += w * w;
        }
        QVERIFY2(std::sqrt(diff / norm) <= ulp, qPrintable(QString::number(std::sqrt(diff / norm))));
    }
}

#else
// Skipped in init(): the functions need the CUDA backend's headers.
void TestCudaFp8::layoutOfMatMulAndGemm()
{
}
void TestCudaFp8::refusalsSayWhy()
{
}
void TestCudaFp8::olderGpusAndLibraryRefusalsWiden()
{
}
void TestCudaFp8::onlyAcceptedGemmsKeepFp8()
{
}
void TestCudaFp8::matmulMatchesTheCpuBackend()
{
}
#endif

QTEST_GUILESS_MAIN(TestCudaFp8)
#include "test_cuda_fp8.moc"
