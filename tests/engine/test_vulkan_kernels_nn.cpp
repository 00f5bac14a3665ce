// SPDX-License-Identifier: MIT
// The Vulkan backend's compute-heavy kernels against reference loops in this file: tiled matmul (tile edges,
// batch broadcast, Gemm transposes), implicit-GEMM Conv (groups, stride, dilation, asymmetric pads),
// ConvTranspose, pooling, attention, FFT (Stockham and direct lengths) and WelchPeaks. Tolerance 1e-4 relative
// (float accumulation order differs from the references, which sum in double).
#include <QTest>

#ifdef COSTSCOPE_HAVE_VULKAN
#include "vulkan_test_util.h"

#include <complex>
#include <numbers>

using namespace costscope;
using namespace costscope::vktest;

namespace {
constexpr double kTol = 1e-4;

HostTensor refMatMul(const HostTensor& a, const HostTensor& b, bool ta, bool tb, double alpha)
{
    const std::int64_t m = ta ? a.dim(1) : a.dim(0), k = ta ? a.dim(0) : a.dim(1), n = tb ? b.dim(0) : b.dim(1);
    HostTensor c({m, n}, DType::F32);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (std::int64_t p = 0; p < k; ++p)
                s += double(a.values<float>()[ta ? p * m + i : i * k + p]) * b.values<float>()[tb ? j * k + p : p * n + j];
            c.values<float>()[i * n + j] = float(alpha * s);
        }
    return c;
}

struct ConvCase {
    std::int64_t n, c, h, w, oc, kh, kw, sh, sw, ph, pw, peh, pew, dh, dw, groups;
};

HostTensor refConv(const HostTensor& x, const HostTensor& wt, const HostTensor& bias, const ConvCase& k)
{
    const std::int64_t oh = (k.h + k.ph + k.peh - (k.dh * (k.kh - 1) + 1)) / k.sh + 1;
    const std::int64_t ow = (k.w + k.pw + k.pew - (k.dw * (k.kw - 1) + 1)) / k.sw + 1;
    HostTensor out({k.n, k.oc, oh, ow}, DType::F32);
    const std::int64_t cg = k.c / k.groups, ocg = k.oc / k.groups;
    for (std::int64_t b = 0; b < k.n; ++b)
        for (std::int64_t o = 0; o < k.oc; ++o)
            for (std::int64_t y = 0; y < oh; ++y)
                for (std::int64_t xx = 0; xx < ow; ++xx) {
                    double s = bias.values<float>()[o];
                    const std::int64_t g = o / ocg;
                    for (std::int64_t ci = 0; ci < cg; ++ci)
                        for (std::int64_t i = 0; i < k.kh; ++i)
                            for (std::int64_t j = 0; j < k.kw; ++j) {
                                const std::int64_t iy = y * k.sh - k.ph + i * k.dh, ix = xx * k.sw - k.pw + j * k.dw;
                                if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w)
                                    continue;
                                s += double(x.values<float>()[((b * k.c + g * cg + ci) * k.h + iy) * k.w + ix])
                                    * wt.values<float>()[((o * cg + ci) * k.kh + i) * k.kw + j];
                            }
                    out.values<float>()[((b * k.oc + o) * oh + y) * ow + xx] = float(s);
                }
    return out;
}

std::vector<double> refDft(const std::vector<std::complex<double>>& x, bool inverse)
{
    const auto n = x.size();
    std::vector<double> planar(2 * n);
    for (std::size_t f = 0; f < n; ++f) {
        std::complex<double> acc = 0;
        for (std::size_t t = 0; t < n; ++t)
            acc += x[t] * std::polar(1.0, (inverse ? 2.0 : -2.0) * std::numbers::pi * double(f * t % n) / double(n));
        planar[f] = acc.real();
        planar[n + f] = acc.imag();
    }
    return planar;
}
} // namespace

class TestVulkanKernelsNn : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { VK_REQUIRE_DEVICE(); }
    void cleanupTestCase() { QVERIFY2(vulkanValidationErrors() == 0, vulkanLastValidationError().c_str()); }

    void matmulTiles()
    {
        // 130 x 150 x 70 crosses the 128-wide tiles and the 8-deep K steps in every direction.
        const auto a = ramp({130, 70}, 1), b = ramp({70, 150}, 2);
        auto c = VK_RUN(runOp(makeOp(OpKind::MatMul), {a, b}));
        QVERIFY(c && sameTensor(*c, refMatMul(a, b, false, false, 1.0), kTol));
        auto vec = VK_RUN(runOp(makeOp(OpKind::MatMul), {f32({3}, {1, 2, 3}), f32({3, 2}, {1, 0, 0, 1, 1, 1})}));
        QVERIFY(vec && sameValues(*vec, {2}, {4, 5}));
    }

    void matmulVectorised()
    {
        // Every dim a multiple of 4: matmul.comp reads A and B as 16-byte vectors in all four transpose cases;
        // 132 x 136 x 72 still crosses the 128-wide tiles and the 8-deep K steps.
        for (const bool ta : {false, true})
            for (const bool tb : {false, true}) {
                const auto a = ramp(ta ? std::vector<std::int64_t>{72, 132} : std::vector<std::int64_t>{132, 72}, 5);
                const auto b = ramp(tb ? std::vector<std::int64_t>{136, 72} : std::vector<std::int64_t>{72, 136}, 6);
                auto c = VK_RUN(runOp(makeOp(OpKind::Gemm, {{"trans_a", std::int64_t(ta)}, {"trans_b", std::int64_t(tb)}}),
                                      {a, b}));
                QVERIFY2(c && sameTensor(*c, refMatMul(a, b, ta, tb, 1.0), kTol), ta ? (tb ? "TT" : "TN") : (tb ? "NT" : "NN"));
            }
        // Only B vectorised (K = 70 is not a multiple of 4, N = 136 is).
        const auto a = ramp({9, 70}, 7), b = ramp({70, 136}, 8);
        auto c = VK_RUN(runOp(makeOp(OpKind::MatMul), {a, b}));
        QVERIFY(c && sameTensor(*c, refMatMul(a, b, false, false, 1.0), kTol));
        // Batched, with batch strides that keep the vectors aligned: each batch against the reference.
        const auto x = ramp({3, 12, 20}, 9), w = ramp({20, 16}, 10);
        auto y = VK_RUN(runOp(makeOp(OpKind::MatMul), {x, w}));
        QVERIFY(y && y->dims() == (std::vector<std::int64_t>{3, 12, 16}));
        for (std::int64_t i = 0; y && i < 3; ++i) {
            HostTensor xi({12, 20}, DType::F32), yi({12, 16}, DType::F32);
            std::copy_n(x.values<float>().begin() + i * 240, 240, xi.values<float>().begin());
            std::copy_n(y->values<float>().begin() + i * 192, 192, yi.values<float>().begin());
            QVERIFY(sameTensor(yi, refMatMul(xi, w, false, false, 1.0), kTol));
        }
    }

    void matmulBatchBroadcast()
    {
        const auto a = f32({2, 1, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
        const auto b = f32({3, 2, 1}, {1, 1, 1, 0, 0, 1});
        auto c = VK_RUN(runOp(makeOp(OpKind::MatMul), {a, b}));
        QVERIFY(c && sameValues(*c, {2, 3, 2, 1}, {3, 7, 1, 3, 2, 4, 11, 15, 5, 7, 6, 8}));
    }

    void gemmAndFused()
    {
        const auto a = ramp({5, 3}, 3), b = ramp({4, 5}, 4);
        auto g = VK_RUN(runOp(makeOp(OpKind::Gemm, {{"trans_a", std::int64_t(1)}, {"trans_b", std::int64_t(1)},
                                                   {"alpha", 2.0}, {"beta", 0.5}}), {a, b, f32({4}, {2, 4, 6, 8})}));
        HostTensor want = refMatMul(a, b, true, true, 2.0);
        for (std::int64_t i = 0; i < 3; ++i)
            for (std::int64_t j = 0; j < 4; ++j)
                want.values<float>()[i * 4 + j] += 0.5f * float(2 * (j + 1));
        QVERIFY(g && sameTensor(*g, want, kTol));
        auto f = VK_RUN(runOp(makeOp(OpKind::FusedMatMulBiasAct, {{"activation", std::string("Relu")}}),
                              {f32({1, 2}, {1, -1}), f32({2, 2}, {1, 2, 3, 4}), f32({2}, {0, 5})}));
        QVERIFY(f && sameValues(*f, {1, 2}, {0, 3}));
    }

    void wideWeightsInPieces()
    {
        // A [33024, 1024] weight is 135 MB, above lavapipe's 128 MiB storage-buffer range: both its fill and the
        // Gemm reading it (transposed, as fully connected layers are) go in pieces.
        Graph g = oneOpGraph(makeOp(OpKind::Gemm, {{"trans_b", std::int64_t(1)}}), {f32({1, 1024}, {})});
        Node w;
        w.id = 5;
        w.op = makeOp(OpKind::ConstantOfShape, {{"shape", std::vector<std::int64_t>{33024, 1024}}, {"value", 0.5},
                                                {"dtype", std::string("F32")}});
        g.add(w);
        g.find(1)->inputs.push_back(5);
        HostTensor ones({1, 1024}, DType::F32);
        std::fill(ones.values<float>().begin(), ones.values<float>().end(), 1.0f);
        auto out = VK_RUN(runGraphAll(g, {ones}));
        QVERIFY(out);
        QCOMPARE((*out)[0].dims(), (std::vector<std::int64_t>{1, 33024}));
        for (std::uint64_t i = 0; i < (*out)[0].elements(); i += 97)
            QCOMPARE((*out)[0].values<float>()[i], 512.0f);
        QCOMPARE((*out)[0].values<float>()[33023], 512.0f);
    }

    void conv_data()
    {
        QTest::addColumn<int>("index");
        QTest::newRow("plain 3x3") << 0;
        QTest::newRow("stride, asymmetric pads") << 1;
        QTest::newRow("groups, dilation") << 2;
        QTest::newRow("depthwise") << 3;
    }
    void conv()
    {
        QFETCH(int, index);
        const ConvCase cases[] = {{1, 2, 5, 5, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                                  {2, 3, 7, 6, 4, 3, 2, 2, 3, 1, 0, 0, 2, 1, 1, 1},
                                  {1, 4, 9, 9, 6, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 2},
                                  {1, 8, 6, 6, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 8}};
        const ConvCase& k = cases[index];
        const auto x = ramp({k.n, k.c, k.h, k.w}, 5), w = ramp({k.oc, k.c / k.groups, k.kh, k.kw}, 6), b = ramp({k.oc}, 7);
        Op op = makeOp(OpKind::Conv, {{"stride", std::vector<std::int64_t>{k.sh, k.sw}},
                                      {"padding", std::vector<std::int64_t>{k.ph, k.pw}},
                                      {"padding_end", std::vector<std::int64_t>{k.peh, k.pew}},
                                      {"dilation", std::vector<std::int64_t>{k.dh, k.dw}},
                                      {"groups", k.groups}});
        auto out = VK_RUN(runOp(op, {x, w, b}));
        QVERIFY(out && sameTensor(*out, refConv(x, w, b, k), kTol));
    }

    void conv1dAndTranspose()
    {
        auto c1 = VK_RUN(runOp(makeOp(OpKind::Conv), {f32({1, 1, 4}, {1, 2, 3, 4}), f32({1, 1, 2}, {1, -1})}));
        QVERIFY(c1 && sameValues(*c1, {1, 1, 3}, {-1, -1, -1}));
        // Stride 2 transposed conv of [1, 2] with kernel [1, 1, 1]: scatter to [1, 1, 3, 2, 2].
        auto ct = VK_RUN(runOp(makeOp(OpKind::ConvTranspose, {{"stride", std::vector<std::int64_t>{2}}}),
                               {f32({1, 1, 2}, {1, 2}), f32({1, 1, 3}, {1, 1, 1})}));
        QVERIFY(ct && sameValues(*ct, {1, 1, 5}, {1, 1, 3, 2, 2}));
    }

    void pooling()
    {
        const auto x = f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
        auto mx = VK_RUN(runOp(makeOp(OpKind::Pool, {{"kind", std::string("Max")}, {"kernel_size", std::vector<std::int64_t>{2, 2}},
                                                    {"stride", std::vector<std::int64_t>{2, 2}}, {"ceil_mode", true}}), {x}));
        QVERIFY(mx && sameValues(*mx, {1, 1, 2, 2}, {5, 6, 8, 9}));
        auto avg = VK_RUN(runOp(makeOp(OpKind::Pool, {{"kind", std::string("Avg")}, {"kernel_size", std::vector<std::int64_t>{2, 2}},
                                                     {"padding", std::vector<std::int64_t>{1, 1}},
                                                     {"stride", std::vector<std::int64_t>{2, 2}}}), {x}));
        QVERIFY(avg && sameValues(*avg, {1, 1, 2, 2}, {1, 2.5, 5.5, 7}));
        auto avgPad = VK_RUN(runOp(makeOp(OpKind::Pool, {{"kind", std::string("Avg")}, {"kernel_size", std::vector<std::int64_t>{2, 2}},
                                                        {"padding", std::vector<std::int64_t>{1, 1}}, {"count_include_pad", true},
                                                        {"stride", std::vector<std::int64_t>{2, 2}}}), {x}));
        QVERIFY(avgPad && sameValues(*avgPad, {1, 1, 2, 2}, {0.25, 1.25, 2.75, 7}));
        auto gp = VK_RUN(runOp(makeOp(OpKind::GlobalPool, {{"kind", std::string("Max")}}), {f32({1, 2, 2}, {1, 4, 3, 2})}));
        QVERIFY(gp && sameValues(*gp, {1, 2, 1}, {4, 3}));
    }

    void attention()
    {
        // One head of width 2, causal: query 0 sees key 0 only; query 1 averages by softmax over both keys.
        const auto q = f32({1, 2, 2}, {1, 0, 0, 1}), k = f32({1, 2, 2}, {1, 0, 0, 1}), v = f32({1, 2, 2}, {1, 2, 3, 4});
        auto out = VK_RUN(runOp(makeOp(OpKind::Attention, {{"num_heads", std::int64_t(1)}, {"head_dim", std::int64_t(2)},
                                                          {"score_scale", 1.0}, {"mask_kind", std::string("Causal")}}),
                                {q, k, v}));
        const double w1 = std::exp(1.0) / (1 + std::exp(1.0));
        QVERIFY(out && sameValues(*out, {1, 2, 2}, {1, 2, (1 - w1) * 1 + w1 * 3, (1 - w1) * 2 + w1 * 4}));
        auto masked = VK_RUN(runOp(makeOp(OpKind::Attention, {{"num_heads", std::int64_t(2)}, {"head_dim", std::int64_t(1)},
                                                             {"mask_kind", std::string("Bias")}}),
                                   {f32({1, 1, 2}, {1, 1}), f32({1, 2, 2}, {1, 1, 1, 1}), f32({1, 2, 2}, {1, 2, 3, 4}),
                                    boolean({1, 1, 1, 2}, {0, 1})}));
        QVERIFY(masked && sameValues(*masked, {1, 1, 2}, {3, 4}));
    }

    void fft_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<bool>("inverse");
        QTest::newRow("radix-2, 16") << 16 << false;
        QTest::newRow("radix-2 inverse, 8") << 8 << true;
        QTest::newRow("direct, 6") << 6 << false;
    }
    void fft()
    {
        QFETCH(int, n);
        QFETCH(bool, inverse);
        const auto rows = 3;
        const auto x = ramp({rows, 2 * n}, 8);
        auto out = VK_RUN(runOp(makeOp(OpKind::Fft, {{"inverse", inverse}}), {x}));
        QVERIFY(out);
        std::vector<double> want;
        for (int r = 0; r < rows; ++r) {
            std::vector<std::complex<double>> sig;
            for (int i = 0; i < n; ++i)
                sig.emplace_back(x.values<float>()[r * 2 * n + i], x.values<float>()[r * 2 * n + n + i]);
            auto row = refDft(sig, inverse);
            for (double& v : row)
                v /= inverse ? n : 1;
            want.insert(want.end(), row.begin(), row.end());
        }
        QVERIFY(sameValues(*out, {rows, 2 * n}, want, kTol));
    }

    void welchPeaks()
    {
        // Two segments of n = 4 bins; bins 0..2 are one-sided. Powers: bin0 (1+9)/2=5, bin1 (4+0)/2=2, bin2 (0+16)/2=8.
        const auto spec = f32({2, 8}, {1, 2, 0, 7, 0, 0, 0, 0, 3, 0, 4, 7, 0, 0, 0, 0});
        auto out = VK_RUN(runOp(makeOp(OpKind::WelchPeaks, {{"k", std::int64_t(4)}, {"n_segments", std::int64_t(2)}}), {spec}));
        QVERIFY(out && sameValues(*out, {1, 8}, {2, 0, 1, 0, 8, 5, 2, 0}));
    }

    void logMel()
    {
        auto out = VK_RUN(runOp(makeOp(OpKind::LogMel), {f32({2, 3}, {1, 2, 3, 0, 0, 0}), f32({2, 3}, {1, 0, 0, 0.5, 0.5, 1})}));
        QVERIFY(out && sameValues(*out, {2, 2}, {0, std::log(4.5), std::log(1e-10), std::log(1e-10)}));
    }
};

QTEST_GUILESS_MAIN(TestVulkanKernelsNn)
#else
class TestVulkanKernelsNn : public QObject {
    Q_OBJECT
private slots:
    void skipped() { QSKIP("built without Vulkan"); }
};
QTEST_GUILESS_MAIN(TestVulkanKernelsNn)
#endif
#include "test_vulkan_kernels_nn.moc"
