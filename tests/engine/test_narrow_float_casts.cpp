// SPDX-License-Identifier: MIT
// engine/narrow_float_casts.h on the CPU backend with made-up "native" sets: a bf16 MLP-and-norm block runs with
// Casts only where a native op meets an F32-run one, keeps its outputs' dtypes, computes exactly as the widened
// graph when nothing is native, is left unchanged when everything is, and stays within bf16 rounding of the CPU
// backend's own by-conversion run in between.
#include "edit/graph_builder.h"
#include "edit/precision_transform.h"
#include "half.h"
#include "narrow_float_casts.h"
#include "op_runner.h"
#include "widen_to_f32.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace costscope;
using namespace costscope::test;

namespace {
TensorData floatData(std::size_t count, float scale)
{
    std::vector<std::uint8_t> bytes(count * 4);
    for (std::size_t i = 0; i < count; ++i) {
        const float v = scale * std::sin(0.7f * float(i) + 0.3f);
        std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
    return makeTensorData(std::move(bytes));
}

// x[4,8] @ w[8,8] + b -> Gelu -> LayerNorm -> Softmax, and the Add's value as a second output; all bf16.
Graph bf16Block()
{
    edit::GraphBuilder b("block");
    const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({4, 8}));
    const NodeId w = b.constant("w", Shape::of({8, 8}), floatData(64, 0.5f));
    const NodeId bias = b.constant("b", Shape::of({8}), floatData(8, 0.1f));
    const NodeId mm = b.op(OpKind::MatMul, {x, w});
    const NodeId add = b.sub(OpKind::Binary, "Add", {mm, bias});
    const NodeId gelu = b.sub(OpKind::Activation, "Gelu", {add});
    const NodeId scale = b.constant("ln_scale", Shape::of({8}), floatData(8, 1.0f));
    const NodeId shift = b.constant("ln_bias", Shape::of({8}), floatData(8, 0.2f));
    const NodeId ln = b.op(OpKind::LayerNorm, {gelu, scale, shift});
    const NodeId sm = b.op(OpKind::Softmax, {ln});
    auto g = edit::withPrecision(b.finish({sm, add}), Precision::Bf16);
    return g ? *g : Graph{};
}

HostTensor bf16Input()
{
    HostTensor x({4, 8}, DType::F32);
    for (std::size_t i = 0; i < 32; ++i)
        x.values<float>()[i] = std::cos(0.37f * float(i));
    HostTensor out({4, 8}, DType::BF16);
    auto* bits = reinterpret_cast<std::uint16_t*>(out.bytes());
    for (std::size_t i = 0; i < 32; ++i)
        bits[i] = floatToBf16(x.values<float>()[i]);
    return out;
}

std::vector<HostTensor> runAll(const Graph& g, const std::vector<HostTensor>& inputs)
{
    CpuBackend backend;
    auto plan = preparePlan(backend, g, {}, 0, inputs);
    if (!plan || !(*plan)->run())
        return {};
    auto out = (*plan)->readOutputs();
    return out ? *out : std::vector<HostTensor>{};
}

int castCount(const Graph& g)
{
    return int(std::count_if(g.nodes.begin(), g.nodes.end(), [](const Node& n) { return n.op.kind == OpKind::Cast; }));
}

bool kindIs(const Graph& g, NodeId id, OpKind k)
{
    const Node* n = g.find(id);
    return n && n->op.kind == k;
}

RunsNarrowNatively nativeKinds(std::vector<OpKind> kinds)
{
    return [kinds](const Graph&, const Node& n) {
        return std::find(kinds.begin(), kinds.end(), n.op.kind) != kinds.end();
    };
}
} // namespace

class TestNarrowFloatCasts : public QObject {
    Q_OBJECT
private slots:
    void castsOnlyWhereNativeMeetsF32();
    void nothingNativeComputesAsWidened();
    void everythingNativeLeavesTheGraph();
    void mixedStaysWithinBf16Rounding();
};

void TestNarrowFloatCasts::castsOnlyWhereNativeMeetsF32()
{
    const Graph g = bf16Block();
    QVERIFY(!g.nodes.empty());
    const Graph t = withNarrowFloatCasts(g, nativeKinds({OpKind::MatMul, OpKind::Binary}));
    // Add (native, bf16) -> Cast to F32 -> Gelu -> LayerNorm -> Softmax (F32, no Cast pairs between them) -> Cast to
    // bf16 for the graph output; the LayerNorm's bf16 constants are widened in place instead of cast.
    QCOMPARE(castCount(t), 2);
    QCOMPARE(t.outputs.size(), std::size_t(2));
    QVERIFY(kindIs(t, t.outputs[0], OpKind::Cast));
    QCOMPARE(t.find(t.outputs[0])->shape.dtype, DType::BF16);
    QCOMPARE(t.outputs[1], g.outputs[1]); // the native Add's value is its own output
    QCOMPARE(t.find(t.outputs[1])->shape.dtype, DType::BF16);
    for (const Node& n : t.nodes) {
        if (n.op.kind == OpKind::MatMul || n.op.kind == OpKind::Binary)
            QCOMPARE(n.shape.dtype, DType::BF16);
        if (n.op.kind == OpKind::Activation || n.op.kind == OpKind::LayerNorm || n.op.kind == OpKind::Softmax) {
            QCOMPARE(n.shape.dtype, DType::F32);
            for (NodeId in : n.inputs)
                QCOMPARE(t.find(in)->shape.dtype, DType::F32);
        }
        if (n.op.kind == OpKind::Cast)
            QVERIFY2(n.name && n.name->find(':') != std::string::npos, "a Cast is named for the value it converts");
    }
    QVERIFY(t.topologicalOrder());
}

void TestNarrowFloatCasts::nothingNativeComputesAsWidened()
{
    const Graph g = bf16Block();
    const Graph t = withNarrowFloatCasts(g, nativeKinds({}));
    QCOMPARE(castCount(t), 3); // the input in, the two outputs back
    const std::vector<HostTensor> in = {bf16Input()};
    const auto got = runAll(t, in);
    const auto wide = runAll(widenedToF32(g), {widenedToF32(in[0])});
    QCOMPARE(got.size(), std::size_t(2));
    QCOMPARE(wide.size(), std::size_t(2));
    for (std::size_t o = 0; o < 2; ++o) {
        QCOMPARE(got[o].dtype(), DType::BF16);
        const HostTensor back = widenedToF32(got[o]);
        for (std::uint64_t i = 0; i < back.elements(); ++i) // the widened run's value, rounded once to bf16
            QCOMPARE(back.values<float>()[i], bf16ToFloat(floatToBf16(wide[o].values<float>()[i])));
    }
}

void TestNarrowFloatCasts::everythingNativeLeavesTheGraph()
{
    const Graph g = bf16Block();
    const Graph t = withNarrowFloatCasts(g, [](const Graph&, const Node&) { return true; });
    QCOMPARE(t.nodes.size(), g.nodes.size());
    QCOMPARE(t.outputs, g.outputs);
    QCOMPARE(castCount(t), 0);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        QCOMPARE(t.nodes[i].shape.dtype, g.nodes[i].shape.dtype);
}

void TestNarrowFloatCasts::mixedStaysWithinBf16Rounding()
{
    const Graph g = bf16Block();
    const std::vector<HostTensor> in = {bf16Input()};
    const auto want = runAll(g, in); // the CPU backend rounds every node's value to bf16
    const auto got = runAll(withNarrowFloatCasts(g, nativeKinds({OpKind::MatMul, OpKind::Softmax})), in);
    QCOMPARE(got.size(), want.size());
    QVERIFY(!got.empty());
    for (std::size_t o = 0; o < got.size(); ++o) {
        QCOMPARE(got[o].dtype(), want[o].dtype());
        const HostTensor a = widenedToF32(got[o]), b = widenedToF32(want[o]);
        for (std::uint64_t i = 0; i < a.elements(); ++i) {
            // The F32-run ops skip the rounding after Add, Gelu and LayerNorm: a few bf16 ulps (2^-8 relative).
            const double x = a.values<float>()[i], y = b.values<float>()[i];
            QVERIFY2(std::abs(x - y) <= 4 * 0x1p-8 * std::max(1.0, std::abs(y)),
                     qPrintable(QString("output %1[%2]: %3 vs %4").arg(o).arg(i).arg(x).arg(y)));
        }
    }
}

QTEST_GUILESS_MAIN(TestNarrowFloatCasts)
#include "test_narrow_float_casts.moc"
