// SPDX-License-Identifier: MIT
// RLX Attention per head ([batch, heads, seq, head_dim]) on the Vulkan backend (lavapipe in CI): without a mask,
// causal (with fewer queries than keys too), with an additive and a Bool mask input and with grouped KV heads, each
// against the plain double-precision loops of attention_reference.h. Tolerance 1e-4 (float accumulation).
#include <QTest>

#ifdef COSTSCOPE_HAVE_VULKAN
#include "attention_reference.h"
#include "vulkan_test_util.h"

using namespace costscope;
using namespace costscope::vktest;

class TestVulkanAttentionPerHead : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { VK_REQUIRE_DEVICE(); }
    void cleanupTestCase() { QVERIFY2(vulkanValidationErrors() == 0, vulkanLastValidationError().c_str()); }

    void matchesReference_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("sq");
        QTest::addColumn<int>("sk");
        QTest::addColumn<QString>("mask");
        QTest::newRow("no mask, [1,4,16,8]") << 4 << 4 << 16 << 16 << "None";
        QTest::newRow("causal") << 4 << 4 << 16 << 16 << "Causal";
        QTest::newRow("causal, fewer queries than keys") << 2 << 2 << 3 << 7 << "Causal";
        QTest::newRow("grouped KV heads") << 4 << 2 << 5 << 5 << "Causal";
        QTest::newRow("one KV head") << 4 << 1 << 5 << 6 << "None";
        QTest::newRow("additive mask") << 2 << 2 << 4 << 6 << "Bias";
        QTest::newRow("Bool mask, grouped") << 4 << 2 << 4 << 6 << "Custom";
    }
    void matchesReference()
    {
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, sq);
        QFETCH(int, sk);
        QFETCH(QString, mask);
        const test::PerHeadShape s{2, heads, kvHeads, sq, sk, 8};
        const HostTensor q = ramp(s.qDims(), 31), k = ramp(s.kvDims(), 32), v = ramp(s.kvDims(), 33);
        auto floats = [](const HostTensor& t) {
            return std::vector<float>(t.values<float>().begin(), t.values<float>().end());
        };
        std::vector<HostTensor> in{q, k, v};
        std::vector<float> additive;
        if (mask == "Bias" || mask == "Custom") {
            // Over [B, 1, Sq, Sk], broadcast across heads: every third key hidden, the rest biased.
            std::vector<float> small(std::size_t(s.batch) * sq * sk);
            std::vector<std::uint8_t> keep(small.size());
            for (std::size_t i = 0; i < small.size(); ++i) {
                keep[i] = (i % 3) != 1;
                small[i] = keep[i] ? (mask == "Bias" ? 0.25f * float(i % 4) : 0.0f) : -INFINITY;
            }
            for (int b = 0; b < s.batch; ++b)
                for (int h = 0; h < heads; ++h)
                    additive.insert(additive.end(), small.begin() + std::ptrdiff_t(b) * sq * sk,
                                    small.begin() + std::ptrdiff_t(b + 1) * sq * sk);
            if (mask == "Bias")
                in.push_back(f32({s.batch, 1, sq, sk}, small));
            else
                in.push_back(boolean({s.batch, 1, sq, sk}, keep));
        }
        auto got = VK_RUN(runOp(makeOp(OpKind::Attention, {{"num_heads", std::int64_t(heads)},
                                                           {"head_dim", std::int64_t(s.headDim)},
                                                           {"mask_kind", mask.toStdString()}}),
                                in));
        QVERIFY(got);
        const auto want = test::referenceAttention(s, floats(q), floats(k), floats(v), mask == "Causal", additive);
        QVERIFY(sameValues(*got, s.qDims(), std::vector<double>(want.begin(), want.end()), 1e-4));
    }
};

QTEST_GUILESS_MAIN(TestVulkanAttentionPerHead)
#else
class TestVulkanAttentionPerHead : public QObject {
    Q_OBJECT
private slots:
    void skipped() { QSKIP("built without Vulkan"); }
};
QTEST_GUILESS_MAIN(TestVulkanAttentionPerHead)
#endif
#include "test_vulkan_attention_per_head.moc"
