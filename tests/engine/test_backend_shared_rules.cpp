// SPDX-License-Identifier: MIT
// The shape rules and attribute readers the CPU, CUDA and Vulkan backends share (engine/shape_util.h,
// engine/op_attrs.h, engine/mel_filterbank.h): each was written two to four times before, and the copies had begun
// to differ (CUDA's pooled size of a window wider than its padded input).
#include "mel_filterbank.h"
#include "op_attrs.h"
#include "shape_util.h"

#include <QtTest>

using namespace costscope;

using Dims = std::vector<std::int64_t>;

class TestBackendSharedRules : public QObject {
    Q_OBJECT
private slots:
    void dimsArithmetic()
    {
        QCOMPARE(product({2, 3, 4}), std::int64_t(24));
        QCOMPARE(product({2, 3, 4}, 1), std::int64_t(12));
        QCOMPARE(product({2, 3, 4}, 0, 2), std::int64_t(6));
        QCOMPARE(product({}), std::int64_t(1));
        QCOMPARE(dimsString({2, 3, 4}), std::string("[2,3,4]"));
        QCOMPARE(dimsString({}), std::string("[]"));
        QCOMPARE(normalizeAxis(-1, 3), std::optional<std::int64_t>(2));
        QCOMPARE(normalizeAxis(2, 3), std::optional<std::int64_t>(2));
        QVERIFY(!normalizeAxis(3, 3));
        QVERIFY(!normalizeAxis(-4, 3));
        QCOMPARE(contiguousStrides({2, 3, 4}), (Dims{12, 4, 1}));
    }

    void sliceWindowFollowsOnnx()
    {
        auto never = [] { return std::string("x"); };
        // x[1:-1, ::-2] of [4, 5]; the last dim walked backwards from its end.
        auto w = sliceWindow({4, 5}, {1, -1}, {-1, -100}, {}, {1, -2}, never);
        QVERIFY(w);
        QCOMPARE(w->dims, (Dims{2, 3}));
        QCOMPARE(w->first, (Dims{1, 4}));
        QCOMPARE(w->step, (Dims{1, -2}));
        // Only axis 1, clamped to the dim; axis 0 is whole.
        w = sliceWindow({4, 5}, {2}, {99}, {-1}, {}, never);
        QVERIFY(w);
        QCOMPARE(w->dims, (Dims{4, 3}));
        QCOMPARE(w->first, (Dims{0, 2}));
        auto bad = sliceWindow({4, 5}, {0}, {1}, {2}, {}, [] { return std::string("[4,5] F32"); });
        QVERIFY(!bad);
        QCOMPARE(bad.error().message, std::string("Slice: bad axis 2 or zero step for [4,5] F32"));
        bad = sliceWindow({4, 5}, {0, 0}, {1}, {}, {}, never);
        QVERIFY(!bad);
        QCOMPARE(bad.error().message, std::string("Slice: starts, ends, axes and steps differ in length"));
    }

    void broadcastAndMatMulDims()
    {
        QCOMPARE(broadcastDims({2, 1, 4}, {3, 1}), std::optional<Dims>(Dims{2, 3, 4}));
        QCOMPARE(broadcastDims({}, {5}), std::optional<Dims>(Dims{5}));
        QVERIFY(!broadcastDims({2, 3}, {4, 3}));
        auto name = [](std::size_t operand) { return std::string(operand == 0 ? "A" : "B"); };
        // [2,1,3,4] @ [5,4,6]: batches [2,1] and [5] broadcast to [2,5].
        auto d = matmulDims({2, 1, 3, 4}, {5, 4, 6}, name);
        QVERIFY(d);
        QCOMPARE(d->m, std::int64_t(3));
        QCOMPARE(d->k, std::int64_t(4));
        QCOMPARE(d->n, std::int64_t(6));
        QCOMPARE(d->aBatch, (Dims{2, 1}));
        QCOMPARE(d->bBatch, (Dims{5}));
        QCOMPARE(d->batch, (Dims{2, 5}));
        QCOMPARE(d->out, (Dims{2, 5, 3, 6}));
        // A vector's promoted unit dim is left out of the product again.
        QCOMPARE(matmulDims({4}, {3, 4, 6}, name)->out, (Dims{3, 6}));
        QCOMPARE(matmulDims({3, 4}, {4}, name)->out, (Dims{3}));
        QCOMPARE(matmulDims({4}, {4}, name)->out, Dims{});
        QCOMPARE(matmulDims({2, 8}, {10, 4}, name).error().message, std::string("MatMul: inner dims differ: A x B"));
        QCOMPARE(matmulDims({3, 2, 8}, {4, 8, 4}, name).error().message,
                 std::string("MatMul: batch dims do not broadcast: A x B"));
        QCOMPARE(matmulDims({}, {4}, name).error().message,
                 std::string("MatMul needs inputs of rank 1 or more, got A and B"));
    }

    void transposeViewReadsPerm()
    {
        auto x = [] { return std::string("x"); };
        auto t = transposeView({2, 3, 4}, {2, 0, -2}, x);
        QVERIFY(t);
        QCOMPARE(t->dims, (Dims{4, 2, 3}));
        QCOMPARE(t->strides, (Dims{1, 12, 4}));
        QCOMPARE(transposeView({2, 3}, {}, x)->dims, (Dims{3, 2})); // empty: reversed
        QCOMPARE(transposeView({2, 3}, {0, 0}, x).error().message,
                 std::string("Transpose: perm [0,0] is not a permutation"));
        QCOMPARE(transposeView({2, 3}, {0, 1, 2}, x).error().message,
                 std::string("Transpose: perm [0,1,2] does not fit x"));
    }

    void melFilterbankIsHtk()
    {
        // 4 triangles over 81 bins 100 Hz apart: each rises to nearly 1 at its centre.
        const std::vector<float> fb = melFilterbank(4, 81);
        QCOMPARE(fb.size(), std::size_t(4 * 81));
        for (std::int64_t m = 0; m < 4; ++m) {
            float peak = 0;
            for (std::int64_t b = 0; b < 81; ++b) {
                const float w = fb[static_cast<std::size_t>(m * 81 + b)];
                QVERIFY(w >= 0.0f && w <= 1.0f);
                peak = std::max(peak, w);
            }
            QVERIFY(peak > 0.9f);
        }
        QCOMPARE(fb[0], 0.0f); // 0 Hz is the first band's lower edge
    }

    void pooledExtent()
    {
        QCOMPARE(pooledSize(7, 3, 2, 1, 0, 0, false), std::int64_t(3));
        QCOMPARE(pooledSize(6, 3, 2, 1, 0, 0, true), std::int64_t(3));
        QCOMPARE(pooledSize(5, 2, 2, 1, 0, 1, true), std::int64_t(3));
        // A window wider than the padded input gives no output (CUDA's copy gave 1 for a stride of 2).
        QCOMPARE(pooledSize(3, 4, 2, 1, 0, 0, false), std::int64_t(0));
    }

    void spatialAttributes()
    {
        Attrs a;
        a.set("stride", std::vector<std::int64_t>{2});
        a.set("padding", std::vector<std::int64_t>{1, 2});
        QCOMPARE(spatialAttr(a, "stride", 3, 1), (Dims{2, 2, 2}));
        QCOMPARE(spatialAttr(a, "padding", 2, 0), (Dims{1, 2}));
        QCOMPARE(spatialAttr(a, "padding", 3, 0), (Dims{0, 0, 0})); // a list of another rank: the default
        QCOMPARE(spatialAttr(a, "dilation", 2, 1), (Dims{1, 1}));
    }

    void fftScaleByNorm()
    {
        Attrs a;
        QCOMPARE(*fftScale(a, false, 8), 1.0);
        QCOMPARE(*fftScale(a, true, 8), 0.125);
        a.set("norm", std::string("Forward"));
        QCOMPARE(*fftScale(a, false, 8), 0.125);
        a.set("norm", std::string("Ortho"));
        QCOMPARE(*fftScale(a, true, 4), 0.5);
        a.set("norm", std::string("Both"));
        QVERIFY(!fftScale(a, false, 8));
        QCOMPARE(fftScale(a, false, 8).error().message, std::string("Fft: unknown norm 'Both'"));
    }

    void attentionMaskKinds()
    {
        Attrs a;
        QVERIFY(attentionMask(a)->kind == AttentionMask::None);
        a.set("mask_kind", std::string("Causal"));
        QVERIFY(attentionMask(a)->kind == AttentionMask::Causal);
        a.set("mask_kind", std::string("Bias"));
        QVERIFY(attentionMask(a)->kind == AttentionMask::Input);
        a.set("mask_kind", RawJson{"{\"SlidingWindow\": 128}"});
        QVERIFY(attentionMask(a)->kind == AttentionMask::Window);
        QCOMPARE(attentionMask(a)->window, std::int64_t(128));
        a.set("mask_kind", std::string("Diagonal"));
        QCOMPARE(attentionMask(a).error().message, std::string("unknown mask_kind 'Diagonal'"));
        a.set("mask_kind", std::int64_t(3));
        QVERIFY(!attentionMask(a));
    }
};

QTEST_APPLESS_MAIN(TestBackendSharedRules)
#include "test_backend_shared_rules.moc"
