// SPDX-License-Identifier: MIT
// RLX Attention with q, k and v per head ([batch, heads, seq, head_dim]) on the CPU backend: without a mask, causal
// (also with fewer queries than keys), with an additive and a Bool mask input, and with grouped KV heads (GQA and
// MQA), each against the plain double-precision loops of attention_reference.h; the same attention with heads
// packed in the last dim gives the same values; shapes that fit no layout are refused with a message saying why.
#include "attention_reference.h"
#include "op_runner.h"

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
std::vector<float> wave(std::size_t n, float phase)
{
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::sin(0.37f * float(i) + phase) * (1.0f + 0.1f * float(i % 5));
    return v;
}

Op attention(const PerHeadShape& s, const std::string& mask)
{
    return makeOp(OpKind::Attention,
                  {{"num_heads", std::int64_t(s.heads)}, {"head_dim", std::int64_t(s.headDim)}, {"mask_kind", mask}});
}

// [B, H, S, D] to [B, S, H*D].
HostTensor packHeads(const std::vector<float>& x, int b, int h, int s, int d)
{
    std::vector<float> out(x.size());
    for (int bi = 0; bi < b; ++bi)
        for (int hi = 0; hi < h; ++hi)
            for (int si = 0; si < s; ++si)
                for (int di = 0; di < d; ++di)
                    out[((std::size_t(bi) * s + si) * h + hi) * d + di] =
                        x[((std::size_t(bi) * h + hi) * s + si) * d + di];
    return f32({b, s, std::int64_t(h) * d}, out);
}
} // namespace

class TestCpuAttentionPerHead : public QObject {
    Q_OBJECT
private slots:
    void matchesReference_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("sq");
        QTest::addColumn<int>("sk");
        QTest::addColumn<QString>("mask");
        // The bundle shape: F32[1,4,16,8].
        QTest::newRow("no mask") << 4 << 4 << 16 << 16 << "None";
        QTest::newRow("causal") << 4 << 4 << 16 << 16 << "Causal";
        QTest::newRow("causal, fewer queries than keys") << 2 << 2 << 3 << 7 << "Causal";
        QTest::newRow("grouped KV heads (GQA)") << 4 << 2 << 5 << 5 << "Causal";
        QTest::newRow("one KV head (MQA)") << 4 << 1 << 5 << 6 << "None";
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
        const PerHeadShape s{2, heads, kvHeads, sq, sk, 8};
        const auto q = wave(s.qSize(), 0.1f), k = wave(s.kvSize(), 0.7f), v = wave(s.kvSize(), 1.3f);
        std::vector<HostTensor> in{f32(s.qDims(), q), f32(s.kvDims(), k), f32(s.kvDims(), v)};
        std::vector<float> additive;
        if (mask == "Bias" || mask == "Custom") {
            // Over [B, 1, Sq, Sk], broadcast across heads: every third key hidden, the rest biased.
            additive.assign(std::size_t(s.batch) * heads * sq * sk, 0.0f);
            std::vector<float> small(std::size_t(s.batch) * sq * sk);
            std::vector<std::uint8_t> keep(small.size());
            for (std::size_t i = 0; i < small.size(); ++i) {
                keep[i] = (i % 3) != 1;
                small[i] = keep[i] ? 0.25f * float(i % 4) : -INFINITY;
            }
            for (int b = 0; b < s.batch; ++b)
                for (int h = 0; h < heads; ++h)
                    for (int r = 0; r < sq * sk; ++r) {
                        const std::size_t src = std::size_t(b) * sq * sk + std::size_t(r);
                        additive[(std::size_t(b) * heads + h) * sq * sk + std::size_t(r)] =
                            mask == "Bias" ? small[src] : (keep[src] ? 0.0f : -INFINITY);
                    }
            if (mask == "Bias")
                in.push_back(f32({s.batch, 1, sq, sk}, small));
            else
                in.push_back(HostTensor::fromBytes({s.batch, 1, sq, sk}, DType::Bool, keep.data(), keep.size()));
        }
        auto got = RUN_OK(runOp(attention(s, mask.toStdString()), in));
        QVERIFY(got);
        QVERIFY(sameFloats(*got, s.qDims(), referenceAttention(s, q, k, v, mask == "Causal", additive), 1e-5));
    }

    void perHeadEqualsPacked()
    {
        const PerHeadShape s{2, 3, 3, 5, 5, 4};
        const auto q = wave(s.qSize(), 0.2f), k = wave(s.kvSize(), 0.9f), v = wave(s.kvSize(), 1.7f);
        auto perHead =
            RUN_OK(runOp(attention(s, "Causal"), {f32(s.qDims(), q), f32(s.kvDims(), k), f32(s.kvDims(), v)}));
        auto packed = RUN_OK(runOp(attention(s, "Causal"),
                                   {packHeads(q, 2, 3, 5, 4), packHeads(k, 2, 3, 5, 4), packHeads(v, 2, 3, 5, 4)}));
        QVERIFY(perHead && packed);
        const HostTensor want =
            packHeads(std::vector<float>(perHead->values<float>().begin(), perHead->values<float>().end()), 2, 3, 5, 4);
        QVERIFY(sameFloats(*packed, want.dims(),
                           std::vector<float>(want.values<float>().begin(), want.values<float>().end()), 1e-6));
    }

    void refusesShapesThatFitNoLayout()
    {
        const PerHeadShape s{1, 4, 4, 16, 16, 8};
        const auto q = wave(s.qSize(), 0.f);
        // num_heads 3 matches neither [.., 3, S, 8] nor [.., S, 24].
        PerHeadShape three = s;
        three.heads = 3;
        auto wrongHeads = runOp(attention(three, "None"), {f32(s.qDims(), q), f32(s.kvDims(), q), f32(s.kvDims(), q)});
        QVERIFY(!wrongHeads);
        QVERIFY2(wrongHeads.error().message.find("per head [..., num_heads = 3, seq, head_dim = 8]")
                     != std::string::npos,
                 wrongHeads.error().message.c_str());
        // 3 KV heads do not divide 4 query heads.
        const std::vector<float> kv3(std::size_t(3 * 16 * 8), 0.5f);
        auto badGroups =
            runOp(attention(s, "None"), {f32(s.qDims(), q), f32({1, 3, 16, 8}, kv3), f32({1, 3, 16, 8}, kv3)});
        QVERIFY(!badGroups);
        QVERIFY2(badGroups.error().message.find("KV heads must divide") != std::string::npos,
                 badGroups.error().message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCpuAttentionPerHead)
#include "test_cpu_attention_per_head.moc"
