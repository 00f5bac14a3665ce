// SPDX-License-Identifier: MIT
// Matrix, convolution, pooling, normalisation, reduction, attention and spectral kernels of the CPU backend.
// Small cases are hand-computed; larger ones are checked against direct loops written here.
#include "cpu/sgemm.h"
#include "op_runner.h"

#include <QTest>

#include <cstring>
#include <numbers>
#include <thread>
#if defined(__linux__)
#include <sched.h>
#endif

using namespace costscope;
using namespace costscope::test;

namespace {
// A value in [-50, 50) with no short pattern: products and sums of these round in every last bit.
float scrambled(std::int64_t a, std::int64_t b)
{
    return float((a * 2654435761LL + b * 40503LL) % 10007) / 100.0f - 50.0f;
}

HostTensor ramp(std::vector<std::int64_t> dims, float scale, float offset = 0)
{
    HostTensor t(std::move(dims), DType::F32);
    auto v = t.values<float>();
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = float((i * 7) % 11) * scale + offset;
    return t;
}

// Direct 2-D convolution (NCHW, OIHW) with groups, stride, dilation and begin/end pads.
std::vector<float> directConv2d(const HostTensor& x, const HostTensor& w, int groups, int stride, int dil, int pb,
                                int pe, std::vector<std::int64_t>& dims)
{
    const auto n = x.dim(0), c = x.dim(1), h = x.dim(2), wd = x.dim(3), m = w.dim(0), kh = w.dim(2), kw = w.dim(3);
    const auto oh = (h + pb + pe - dil * (kh - 1) - 1) / stride + 1, ow = (wd + pb + pe - dil * (kw - 1) - 1) / stride + 1;
    dims = {n, m, oh, ow};
    std::vector<float> out(static_cast<std::size_t>(n * m * oh * ow), 0.0f);
    const auto cg = c / groups, mg = m / groups;
    for (std::int64_t b = 0; b < n; ++b)
        for (std::int64_t o = 0; o < m; ++o)
            for (std::int64_t y = 0; y < oh; ++y)
                for (std::int64_t xx = 0; xx < ow; ++xx) {
                    double acc = 0;
                    const auto g = o / mg;
                    for (std::int64_t ci = 0; ci < cg; ++ci)
                        for (std::int64_t i = 0; i < kh; ++i)
                            for (std::int64_t j = 0; j < kw; ++j) {
                                const auto iy = y * stride - pb + i * dil, ix = xx * stride - pb + j * dil;
                                if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
                                    continue;
                                acc += x.values<float>()[static_cast<std::size_t>(((b * c + g * cg + ci) * h + iy) * wd + ix)]
                                    * w.values<float>()[static_cast<std::size_t>(((o * cg + ci) * kh + i) * kw + j)];
                            }
                    out[static_cast<std::size_t>(((b * m + o) * oh + y) * ow + xx)] = static_cast<float>(acc);
                }
    return out;
}
} // namespace

class TestCpuKernelsNn : public QObject {
    Q_OBJECT
private slots:
    void poolSizeFollowsTheAffinityMask();
    void matmulFamily();
    void sgemmIsDeterministic_data();
    void sgemmIsDeterministic();
    void convMatchesDirectLoops_data();
    void convMatchesDirectLoops();
    void convTranspose();
    void pooling();
    void pooling2dMatchesGeneralPath_data();
    void pooling2dMatchesGeneralPath();
    void normalisations();
    void reduceAndSoftmax();
    void attentionMatchesDirectLoops();
    void fftAndSpectral();
};

void TestCpuKernelsNn::matmulFamily()
{
    auto mm = RUN_OK(runOp(makeOp(OpKind::MatMul), {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {1, 0, 0, 1, 1, 1})}));
    QVERIFY(mm);
    QVERIFY(sameFloats(*mm, {2, 2}, {4, 5, 10, 11}));
    // Batched A against a shared B, and a broadcast batch on both sides.
    auto bm = RUN_OK(runOp(makeOp(OpKind::MatMul), {f32({2, 1, 2}, {1, 2, 3, 4}), f32({2, 1}, {1, 1})}));
    QVERIFY(bm);
    QVERIFY(sameFloats(*bm, {2, 1, 1}, {3, 7}));
    auto bb = RUN_OK(runOp(makeOp(OpKind::MatMul), {f32({2, 1, 1, 2}, {1, 2, 3, 4}), f32({3, 2, 1}, {1, 0, 0, 1, 1, 1})}));
    QVERIFY(bb);
    QVERIFY(sameFloats(*bb, {2, 3, 1, 1}, {1, 2, 3, 3, 4, 7}));
    auto vec = RUN_OK(runOp(makeOp(OpKind::MatMul), {f32({2}, {1, 2}), f32({2, 2}, {1, 2, 3, 4})}));
    QVERIFY(vec);
    QVERIFY(sameFloats(*vec, {2}, {7, 10}));
    QVERIFY(!runOp(makeOp(OpKind::MatMul), {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2, 2}, {1, 2, 3, 4})}));

    auto gemm = RUN_OK(runOp(makeOp(OpKind::Gemm, {{"alpha", 2.0}, {"beta", 0.5}, {"trans_b", std::int64_t(1)}}),
                             {f32({1, 2}, {1, 2}), f32({3, 2}, {1, 0, 0, 1, 1, 1}), f32({3}, {10, 20, 30})}));
    QVERIFY(gemm);
    QVERIFY(sameFloats(*gemm, {1, 3}, {7, 14, 21}));
    auto gemmTa = RUN_OK(runOp(makeOp(OpKind::Gemm, {{"trans_a", std::int64_t(1)}}),
                               {f32({2, 1}, {1, 2}), f32({2, 2}, {1, 2, 3, 4})}));
    QVERIFY(gemmTa);
    QVERIFY(sameFloats(*gemmTa, {1, 2}, {7, 10}));

    auto fused = RUN_OK(runOp(makeOp(OpKind::FusedMatMulBiasAct, {{"activation", std::string("Relu")}}),
                              {f32({1, 2}, {1, -2}), f32({2, 2}, {1, 1, 1, 1}), f32({2}, {0.5f, 3})}));
    QVERIFY(fused);
    QVERIFY(sameFloats(*fused, {1, 2}, {0, 2}));
}

void TestCpuKernelsNn::sgemmIsDeterministic_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::addColumn<bool>("transA");
    QTest::addColumn<bool>("transB");
    QTest::addColumn<float>("alpha");
    QTest::addColumn<float>("beta");
    QTest::newRow("squeezenet conv10") << 1000 << 169 << 512 << false << false << 1.0f << 0.0f;
    QTest::newRow("ragged edges") << 37 << 53 << 300 << false << false << 1.0f << 0.0f;
    QTest::newRow("transposed") << 61 << 70 << 600 << true << true << 1.0f << 0.0f;
    QTest::newRow("alpha and beta") << 20 << 33 << 257 << false << true << 0.5f << 2.0f;
    QTest::newRow("accumulate") << 300 << 40 << 700 << true << false << 1.0f << 1.0f;
    QTest::newRow("one row") << 1 << 300 << 700 << false << true << 1.0f << 0.0f;
    // Wider than one packed panel of B (3072 columns) with a ragged last sliver: the panel is packed row by row.
    QTest::newRow("two panels") << 13 << 3100 << 270 << false << false << 1.0f << 0.0f;
}

// Rows of op(A) repeat every 7 rows and columns of op(B) every 5 columns (C's starting values follow both), so the
// matching elements of C must come out bit-identical, whatever their place in the kernel's tiles and whatever the
// number of threads: a softmax over large logits (SqueezeNet's reach 1e10) turns one ulp into another answer.
void TestCpuKernelsNn::sgemmIsDeterministic()
{
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, k);
    QFETCH(bool, transA);
    QFETCH(bool, transB);
    QFETCH(float, alpha);
    QFETCH(float, beta);
    const std::int64_t lda = transA ? m : k, ldb = transB ? k : n;
    std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
    std::vector<float> c0(static_cast<std::size_t>(m * n));
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t p = 0; p < k; ++p)
            a[static_cast<std::size_t>(transA ? p * lda + i : i * lda + p)] = scrambled(i % 7, p);
    for (std::int64_t p = 0; p < k; ++p)
        for (std::int64_t j = 0; j < n; ++j)
            b[static_cast<std::size_t>(transB ? j * ldb + p : p * ldb + j)] = scrambled(p, j % 5 + 100);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j)
            c0[static_cast<std::size_t>(i * n + j)] = scrambled(i % 7, j % 5 + 200);

    std::vector<float> first;
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
        cpu::ThreadPool pool(threads);
        std::vector<float> c = c0;
        cpu::sgemm(pool, transA, transB, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), n);
        if (!first.empty()) {
            QVERIFY2(std::memcmp(c.data(), first.data(), c.size() * sizeof(float)) == 0,
                     qPrintable(QString("%1 threads differ from 1 thread").arg(threads)));
            continue;
        }
        first = c;
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                const float got = c[static_cast<std::size_t>(i * n + j)];
                const float twin = c[static_cast<std::size_t>((i % 7) * n + j % 5)];
                if (std::memcmp(&got, &twin, sizeof(float)) != 0)
                    QFAIL(qPrintable(QString("C[%1][%2] = %3 but its twin C[%4][%5] = %6")
                                         .arg(i).arg(j).arg(double(got), 0, 'g', 9).arg(i % 7).arg(j % 5)
                                         .arg(double(twin), 0, 'g', 9)));
            }
        for (std::int64_t i = 0; i < std::min(m, 7); ++i)
            for (std::int64_t j = 0; j < std::min(n, 5); ++j) {
                double want = beta * double(c0[static_cast<std::size_t>(i * n + j)]);
                for (std::int64_t p = 0; p < k; ++p)
                    want += double(alpha) * scrambled(i, p) * scrambled(p, j + 100);
                const double got = c[static_cast<std::size_t>(i * n + j)];
                QVERIFY2(std::abs(got - want) <= 1e-5 * 2500.0 * k,
                         qPrintable(QString("C[%1][%2] = %3, expected %4").arg(i).arg(j).arg(got).arg(want)));
            }
    }
}

// A process pinned to one core (taskset, a container's cpuset) gets a pool of one thread, not one per online core.
void TestCpuKernelsNn::poolSizeFollowsTheAffinityMask()
{
#if defined(__linux__)
    unsigned pinned = 0;
    std::thread t([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
        if (sched_setaffinity(0, sizeof one, &one) == 0)
            pinned = cpu::usableCores();
    });
    t.join();
    QCOMPARE(pinned, 1u);
    QVERIFY(cpu::usableCores() >= 1);
#else
    QSKIP("affinity masks are read on Linux only");
#endif
}

void TestCpuKernelsNn::convMatchesDirectLoops_data()
{
    QTest::addColumn<int>("groups");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("dilation");
    QTest::addColumn<int>("padBegin");
    QTest::addColumn<int>("padEnd");
    QTest::newRow("plain") << 1 << 1 << 1 << 0 << 0;
    QTest::newRow("padded") << 1 << 1 << 1 << 1 << 1;
    QTest::newRow("asymmetric pads") << 1 << 1 << 1 << 0 << 2;
    QTest::newRow("strided") << 1 << 2 << 1 << 1 << 1;
    QTest::newRow("dilated") << 1 << 1 << 2 << 2 << 2;
    QTest::newRow("groups") << 2 << 1 << 1 << 1 << 0;
    QTest::newRow("strided, pads wider than the stride") << 1 << 2 << 1 << 3 << 2;
    QTest::newRow("strided and dilated") << 1 << 3 << 2 << 2 << 1;
    QTest::newRow("depthwise") << 4 << 2 << 1 << 1 << 1;
    // Batch x groups of at least twice the pool take one group a thread (depthwise: direct loops, depthwisePlane2d).
    QTest::newRow("grouped, strided, dilated, asymmetric pads") << 2 << 2 << 2 << 2 << 1;
    QTest::newRow("depthwise, dilated, pad at the end only") << 4 << 1 << 2 << 0 << 2;
}

void TestCpuKernelsNn::convMatchesDirectLoops()
{
    QFETCH(int, groups);
    QFETCH(int, stride);
    QFETCH(int, dilation);
    QFETCH(int, padBegin);
    QFETCH(int, padEnd);
    const HostTensor x = ramp({2, 4, 7, 6}, 0.1f, -0.5f);
    const HostTensor w = ramp({4, 4 / groups, 3, 3}, 0.05f, -0.2f);
    const HostTensor bias = f32({4}, {1, 2, 3, 4});
    const std::vector<std::int64_t> two = {2, 2};
    Op op = makeOp(OpKind::Conv, {{"kernel_size", std::vector<std::int64_t>{3, 3}},
                                  {"stride", std::vector<std::int64_t>{stride, stride}},
                                  {"padding", std::vector<std::int64_t>{padBegin, padBegin}},
                                  {"padding_end", std::vector<std::int64_t>{padEnd, padEnd}},
                                  {"dilation", std::vector<std::int64_t>{dilation, dilation}},
                                  {"groups", std::int64_t(groups)}});
    auto got = RUN_OK(runOp(op, {x, w, bias}));
    QVERIFY(got);
    std::vector<std::int64_t> dims;
    std::vector<float> want = directConv2d(x, w, groups, stride, dilation, padBegin, padEnd, dims);
    for (std::size_t i = 0; i < want.size(); ++i)
        want[i] += float(1 + (i / static_cast<std::size_t>(dims[2] * dims[3])) % 4);
    QVERIFY(sameFloats(*got, dims, want, 1e-4));
}

void TestCpuKernelsNn::convTranspose()
{
    // 1-D, stride 2: y[i*2 + k] += x[i] * w[k]; x = [1, 2], w = [1, 10, 100], bias 0.5.
    auto t = RUN_OK(runOp(makeOp(OpKind::ConvTranspose, {{"stride", std::vector<std::int64_t>{2}}}),
                          {f32({1, 1, 2}, {1, 2}), f32({1, 1, 3}, {1, 10, 100}), f32({1}, {0.5f})}));
    QVERIFY(t);
    QVERIFY(sameFloats(*t, {1, 1, 5}, {1.5f, 10.5f, 102.5f, 20.5f, 200.5f}));
    // Padding crops both ends; output_padding adds a trailing position; two output channels.
    auto p = RUN_OK(runOp(makeOp(OpKind::ConvTranspose, {{"stride", std::vector<std::int64_t>{2}},
                                                         {"padding", std::vector<std::int64_t>{1}},
                                                         {"output_padding", std::vector<std::int64_t>{1}}}),
                          {f32({1, 1, 2}, {1, 2}), f32({1, 2, 3}, {1, 10, 100, 2, 20, 200})}));
    QVERIFY(p);
    QVERIFY(sameFloats(*p, {1, 2, 4}, {10, 102, 20, 200, 20, 204, 40, 400}));
}

void TestCpuKernelsNn::pooling()
{
    const HostTensor x = f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    auto mx = RUN_OK(runOp(makeOp(OpKind::Pool, {{"kind", std::string("Max")}, {"kernel_size", std::vector<std::int64_t>{2, 2}},
                                                {"stride", std::vector<std::int64_t>{1, 1}}}), {x}));
    QVERIFY(mx);
    QVERIFY(sameFloats(*mx, {1, 1, 2, 2}, {5, 6, 8, 9}));
    auto avgPad = [&](bool include) {
        return runOp(makeOp(OpKind::Pool, {{"kind", std::string("Avg")}, {"kernel_size", std::vector<std::int64_t>{2, 2}},
                                          {"stride", std::vector<std::int64_t>{2, 2}}, {"padding", std::vector<std::int64_t>{1, 1}},
                                          {"count_include_pad", include}}),
                     {x});
    };
    QVERIFY(sameFloats(*RUN_OK(avgPad(false)), {1, 1, 2, 2}, {1, 2.5f, 5.5f, 7}));
    QVERIFY(sameFloats(*RUN_OK(avgPad(true)), {1, 1, 2, 2}, {0.25f, 1.25f, 2.75f, 7}));
    auto ceil = RUN_OK(runOp(makeOp(OpKind::Pool, {{"kind", std::string("Max")}, {"kernel_size", std::vector<std::int64_t>{2, 2}},
                                                  {"stride", std::vector<std::int64_t>{2, 2}}, {"ceil_mode", true}}), {x}));
    QVERIFY(ceil);
    QVERIFY(sameFloats(*ceil, {1, 1, 2, 2}, {5, 6, 8, 9}));
    auto gp = RUN_OK(runOp(makeOp(OpKind::GlobalPool, {{"kind", std::string("Avg")}}), {x}));
    QVERIFY(gp);
    QVERIFY(sameFloats(*gp, {1, 1, 1, 1}, {5}));
    auto gm = RUN_OK(runOp(makeOp(OpKind::GlobalPool, {{"kind", std::string("Max")}}), {x}));
    QVERIFY(sameFloats(*gm, {1, 1, 1, 1}, {9}));
}

// The 2-D undilated Pool runs its own loops; the same pool over [N, C, H, W, 1] with a kernel of [kh, kw, 1] goes
// through the general N-D loop. Both must agree in every bit, for every pad, stride, ceil and count mode.
void TestCpuKernelsNn::pooling2dMatchesGeneralPath_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("kernel");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("padBegin");
    QTest::addColumn<int>("padEnd");
    QTest::addColumn<bool>("ceil");
    QTest::addColumn<bool>("includePad");
    QTest::newRow("max 3x3 s2 p1") << "Max" << 3 << 2 << 1 << 1 << false << false;
    QTest::newRow("max 3x3 s2 ceil") << "Max" << 3 << 2 << 0 << 0 << true << false;
    QTest::newRow("max 2x2 s2") << "Max" << 2 << 2 << 0 << 0 << false << false;
    QTest::newRow("avg 3x3 s1 p1 exclude") << "Avg" << 3 << 1 << 1 << 1 << false << false;
    QTest::newRow("avg 3x3 s1 p1 include") << "Avg" << 3 << 1 << 1 << 1 << false << true;
    QTest::newRow("avg 5x5 s3 asymmetric include ceil") << "Avg" << 5 << 3 << 2 << 1 << true << true;
    QTest::newRow("avg 7x7 s1 global-like") << "Avg" << 7 << 1 << 0 << 0 << false << false;
    QTest::newRow("max 4x4 s3 p2 end0 ceil") << "Max" << 4 << 3 << 2 << 0 << true << false;
}

void TestCpuKernelsNn::pooling2dMatchesGeneralPath()
{
    QFETCH(QString, kind);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(int, padBegin);
    QFETCH(int, padEnd);
    QFETCH(bool, ceil);
    QFETCH(bool, includePad);
    HostTensor x4({2, 3, 11, 9}, DType::F32);
    auto v = x4.values<float>();
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = scrambled(std::int64_t(i), 3);
    HostTensor x5({2, 3, 11, 9, 1}, DType::F32);
    std::memcpy(x5.bytes(), x4.bytes(), x4.byteSize());
    auto pool = [&](const HostTensor& x, std::vector<std::int64_t> extra) {
        auto dims = [&](std::int64_t a) {
            std::vector<std::int64_t> d{a, a};
            d.insert(d.end(), extra.begin(), extra.end());
            return d;
        };
        std::vector<std::int64_t> k{kernel, kernel}, ones = dims(1);
        k.insert(k.end(), extra.size(), 1);
        std::vector<std::int64_t> pe = dims(padEnd);
        for (std::size_t i = 2; i < pe.size(); ++i)
            pe[i] = 0;
        std::vector<std::int64_t> pb = dims(padBegin), st = dims(stride);
        for (std::size_t i = 2; i < pb.size(); ++i)
            pb[i] = 0, st[i] = 1;
        return runOp(makeOp(OpKind::Pool, {{"kind", kind.toStdString()}, {"kernel_size", k}, {"stride", st},
                                          {"padding", pb}, {"padding_end", pe}, {"ceil_mode", ceil},
                                          {"count_include_pad", includePad}}),
                     {x});
    };
    auto fast = RUN_OK(pool(x4, {}));
    auto general = RUN_OK(pool(x5, {1}));
    QVERIFY(fast && general);
    QCOMPARE(fast->elements(), general->elements());
    QVERIFY(fast->elements() > 0);
    QCOMPARE(general->dim(4), std::int64_t(1));
    for (std::size_t d = 0; d < 4; ++d)
        QCOMPARE(fast->dim(d), general->dim(d));
    QVERIFY(std::memcmp(fast->bytes(), general->bytes(), fast->byteSize()) == 0);
}

void TestCpuKernelsNn::normalisations()
{
    auto ln = RUN_OK(runOp(makeOp(OpKind::LayerNorm, {{"axis", std::int64_t(-1)}, {"eps", 0.0}}),
                           {f32({2, 2}, {1, 3, 0, 4}), f32({2}, {1, 2}), f32({2}, {0, 1})}));
    QVERIFY(ln);
    QVERIFY(sameFloats(*ln, {2, 2}, {-1, 3, -1, 3}, 1e-4));
    auto rms = RUN_OK(runOp(makeOp(OpKind::RmsNorm, {{"eps", 0.0}}), {f32({1, 2}, {3, 4}), f32({2}, {1, 2})}));
    QVERIFY(rms);
    const float r = std::sqrt(12.5f);
    QVERIFY(sameFloats(*rms, {1, 2}, {3 / r, 8 / r}));
    auto bn = RUN_OK(runOp(makeOp(OpKind::BatchNorm, {{"eps", 0.0}}),
                           {f32({1, 2, 1, 2}, {1, 2, 3, 4}), f32({2}, {1, 2}), f32({2}, {0, 1}), f32({2}, {1, 3}),
                            f32({2}, {4, 1})}));
    QVERIFY(bn);
    QVERIFY(sameFloats(*bn, {1, 2, 1, 2}, {0, 0.5f, 1, 3}));
    auto in = RUN_OK(runOp(makeOp(OpKind::InstanceNorm, {{"eps", 0.0}}),
                           {f32({1, 2, 2}, {1, 3, 5, 7}), f32({2}, {2, 1}), f32({2}, {0, 7})}));
    QVERIFY(in);
    QVERIFY(sameFloats(*in, {1, 2, 2}, {-2, 2, 6, 8}));
    // Lrn with size 3 over 2 channels: each sum sees both channels.
    auto lrn = RUN_OK(runOp(makeOp(OpKind::Lrn, {{"size", std::int64_t(3)}, {"alpha", 3.0}, {"beta", 1.0}, {"bias", 1.0}}),
                            {f32({1, 2, 1, 1}, {1, 2})}));
    QVERIFY(lrn);
    QVERIFY(sameFloats(*lrn, {1, 2, 1, 1}, {1.0f / 6, 2.0f / 6}));
}

void TestCpuKernelsNn::reduceAndSoftmax()
{
    const HostTensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
    auto reduce = [&](const char* op, std::vector<std::int64_t> axes, bool keep) {
        return runOp(makeOp(OpKind::Reduce, {{"op", std::string(op)}, {"axes", axes}, {"keep_dim", keep}}), {x});
    };
    QVERIFY(sameFloats(*RUN_OK(reduce("Mean", {1}, true)), {2, 1}, {2, 5}));
    // Trailing axes (one contiguous run per output) and leading ones (the strided loop) over the same values.
    HostTensor big({4, 5, 6}, DType::F32);
    for (std::size_t i = 0; i < big.elements(); ++i)
        big.values<float>()[i] = scrambled(std::int64_t(i), 1) / 40.0f; // |v| < 1.25: the product stays finite
    for (const char* op : {"Sum", "Mean", "Max", "Min", "Prod"}) {
        auto trailing = RUN_OK(runOp(makeOp(OpKind::Reduce, {{"op", std::string(op)}, {"axes", std::vector<std::int64_t>{1, 2}},
                                                            {"keep_dim", false}}), {big}));
        QVERIFY(trailing);
        std::vector<float> want;
        for (std::int64_t a = 0; a < 4; ++a) {
            double acc = std::string(op) == "Max" ? -1e300 : std::string(op) == "Min" ? 1e300 : std::string(op) == "Prod" ? 1 : 0;
            for (std::int64_t r = 0; r < 30; ++r) {
                const double e = big.values<float>()[std::size_t(a * 30 + r)];
                acc = std::string(op) == "Max" ? std::max(acc, e) : std::string(op) == "Min" ? std::min(acc, e)
                    : std::string(op) == "Prod" ? acc * e : acc + e;
            }
            want.push_back(float(std::string(op) == "Mean" ? acc / 30 : acc));
        }
        QVERIFY2(sameFloats(*trailing, {4}, want), op);
    }
    QVERIFY(sameFloats(*RUN_OK(reduce("Sum", {0}, false)), {3}, {5, 7, 9}));
    QVERIFY(sameFloats(*RUN_OK(reduce("Max", {}, false)), {}, {6}));
    QVERIFY(sameFloats(*RUN_OK(reduce("Min", {-1}, false)), {2}, {1, 4}));
    QVERIFY(sameFloats(*RUN_OK(reduce("Prod", {1}, false)), {2}, {6, 120}));
    auto sm = RUN_OK(runOp(makeOp(OpKind::Softmax, {{"axis", std::int64_t(0)}}), {f32({2, 1}, {0, std::log(3.0f)})}));
    QVERIFY(sm);
    QVERIFY(sameFloats(*sm, {2, 1}, {0.25f, 0.75f}));
    auto lsm = RUN_OK(runOp(makeOp(OpKind::LogSoftmax, {{"axis", std::int64_t(-1)}}), {f32({1, 2}, {0, 0})}));
    QVERIFY(lsm);
    QVERIFY(sameFloats(*lsm, {1, 2}, {-std::log(2.0f), -std::log(2.0f)}));
}

void TestCpuKernelsNn::attentionMatchesDirectLoops()
{
    const std::int64_t b = 2, s = 3, h = 2, d = 4, w = h * d;
    const HostTensor q = ramp({b, s, w}, 0.1f, -0.3f), k = ramp({b, s, w}, 0.07f, -0.2f), v = ramp({b, s, w}, 0.2f);
    for (bool causal : {false, true}) {
        auto got = RUN_OK(runOp(makeOp(OpKind::Attention, {{"num_heads", h}, {"head_dim", d},
                                                           {"mask_kind", std::string(causal ? "Causal" : "None")}}),
                                {q, k, v}));
        QVERIFY(got);
        std::vector<float> want(static_cast<std::size_t>(b * s * w));
        auto at = [&](const HostTensor& t, std::int64_t bi, std::int64_t si, std::int64_t hi, std::int64_t di) {
            return double(t.values<float>()[static_cast<std::size_t>((bi * s + si) * w + hi * d + di)]);
        };
        for (std::int64_t bi = 0; bi < b; ++bi)
            for (std::int64_t hi = 0; hi < h; ++hi)
                for (std::int64_t i = 0; i < s; ++i) {
                    std::vector<double> p(static_cast<std::size_t>(s));
                    double sum = 0;
                    for (std::int64_t j = 0; j < s; ++j) {
                        double dot = 0;
                        for (std::int64_t di = 0; di < d; ++di)
                            dot += at(q, bi, i, hi, di) * at(k, bi, j, hi, di);
                        p[static_cast<std::size_t>(j)] = (causal && j > i) ? 0.0 : std::exp(dot / std::sqrt(double(d)));
                        sum += p[static_cast<std::size_t>(j)];
                    }
                    for (std::int64_t di = 0; di < d; ++di) {
                        double acc = 0;
                        for (std::int64_t j = 0; j < s; ++j)
                            acc += p[static_cast<std::size_t>(j)] / sum * at(v, bi, j, hi, di);
                        want[static_cast<std::size_t>((bi * s + i) * w + hi * d + di)] = static_cast<float>(acc);
                    }
                }
        QVERIFY(sameFloats(*got, {b, s, w}, want, 1e-4));
    }
}

void TestCpuKernelsNn::fftAndSpectral()
{
    // Planar complex [re x4, im x4]: the transform of an impulse is all ones.
    auto impulse = RUN_OK(runOp(makeOp(OpKind::Fft, {{"inverse", false}}), {f32({1, 8}, {1, 0, 0, 0, 0, 0, 0, 0})}));
    QVERIFY(impulse);
    QVERIFY(sameFloats(*impulse, {1, 8}, {1, 1, 1, 1, 0, 0, 0, 0}));
    // x = [0, 1, 0, 0]: X[f] = exp(-2 pi i f / 4) = [1, -i, -1, i].
    auto shifted = RUN_OK(runOp(makeOp(OpKind::Fft), {f32({1, 8}, {0, 1, 0, 0, 0, 0, 0, 0})}));
    QVERIFY(sameFloats(*shifted, {1, 8}, {1, 0, -1, 0, 0, -1, 0, 1}, 1e-5));
    auto inverse = RUN_OK(runOp(makeOp(OpKind::Fft, {{"inverse", true}}), {*shifted}));
    QVERIFY(sameFloats(*inverse, {1, 8}, {0, 1, 0, 0, 0, 0, 0, 0}, 1e-5));

    // Two segments of a cosine at bin 3 (n = 16): WelchPeaks puts bin 3 first with power (n/2)^2.
    const int n = 16;
    HostTensor segs({2, 2 * n}, DType::F32);
    for (int r = 0; r < 2; ++r)
        for (int t = 0; t < n; ++t)
            segs.values<float>()[static_cast<std::size_t>(r * 2 * n + t)] = float(std::cos(2 * std::numbers::pi * 3 * t / n));
    Graph g = oneOpGraph(makeOp(OpKind::Fft), {segs});
    Node peaks;
    peaks.id = 2;
    peaks.op = makeOp(OpKind::WelchPeaks, {{"k", std::int64_t(2)}, {"n_segments", std::int64_t(2)}});
    peaks.inputs = {1};
    g.add(peaks);
    g.outputs = {2};
    auto wp = RUN_OK(runGraph(g, {segs}));
    QVERIFY(wp);
    QCOMPARE(wp->dims(), (std::vector<std::int64_t>{1, 4}));
    QCOMPARE(wp->values<float>()[0], 3.0f);
    QVERIFY(std::abs(wp->values<float>()[2] - 64.0f) < 1e-3);
    QVERIFY(wp->values<float>()[3] < 1e-6);

    auto mel = RUN_OK(runOp(makeOp(OpKind::LogMel), {f32({1, 3}, {1, 2, 4}), f32({2, 3}, {1, 0, 0, 0, 0.5f, 0.25f})}));
    QVERIFY(mel);
    QVERIFY(sameFloats(*mel, {1, 2}, {0, std::log(2.0f)}));
    auto bank = RUN_OK(runOp(makeOp(OpKind::LogMel), {ramp({2, 33}, 0.1f, 0.01f)}, Shape::of({2, 8})));
    QVERIFY(bank);
    QCOMPARE(bank->dims(), (std::vector<std::int64_t>{2, 8}));
    for (float value : bank->values<float>())
        QVERIFY(std::isfinite(value));
}

QTEST_GUILESS_MAIN(TestCpuKernelsNn)
#include "test_cpu_kernels_nn.moc"
