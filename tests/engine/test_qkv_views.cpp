// SPDX-License-Identifier: MIT
// Which attention groups read q, k and v in place from the packed QKV tensor, and which slice copies need not run
// (engine/qkv_views.h), decided on the CPU: the GPT-2 graph as an ONNX export writes it (Split as Narrow, Reshape,
// Transpose), in F32, bf16 and fp16; slices another node reads (kept, the group still reading in place); q, k and v
// from two tensors, or cut along another dim (no view); a last-dim Slice in the Narrow's place. The CUDA backend's use
// of the decision runs on the GPU (test_cuda_backend's qkvViewsMatchTheCopies, bench_cuda_sixteen_bit).
#include "../bench/cuda_transformer_graphs.h"
#include "edit/precision_transform.h"
#include "fusion_plan.h"
#include "qkv_views.h"

#include <QTest>

using namespace costscope;

class TestQkvViews : public QObject {
    Q_OBJECT

private slots:
    void exportedGpt2ReadsQkvInPlace();
    void cudaTypesReadQkvInPlace();
    void sliceReadElsewhereIsKept();
    void twoTensorsAreNoView();
    void otherDimsAreNoView();
    void lastDimSliceIsAView();
    void noAttentionGroupNoView();
};

namespace {
constexpr std::int64_t kHidden = 64;

Graph exportedGpt2()
{
    cudacases::TransformerConfig c;
    c.layers = 2;
    c.decomposed = c.exportedAttention = true;
    return cudacases::transformerGraph(c);
}

FusionOptions attention(bool sixteenBit = false)
{
    FusionOptions o;
    o.attention = true;
    o.sixteenBit = sixteenBit;
    return o;
}

std::vector<std::size_t> positionsOf(const Graph& g, OpKind kind)
{
    std::vector<std::size_t> out;
    for (std::size_t p = 0; p < g.nodes.size(); ++p)
        if (g.nodes[p].op.kind == kind)
            out.push_back(p);
    return out;
}

std::size_t skippedCount(const QkvViewPlan& plan)
{
    return std::size_t(std::count(plan.skipped.begin(), plan.skipped.end(), true));
}

// Every attention group reads in place at offsets 0, H, 2H of rows 3H, from the Narrows' input.
void checkGpt2Views(const Graph& g, const FusionPlan& fusion, const QkvViewPlan& views)
{
    QCOMPARE(fusion.groups.size() >= 2, true);
    QCOMPARE(views.views.size(), std::size_t(2));
    const auto narrows = positionsOf(g, OpKind::Narrow);
    QCOMPARE(narrows.size(), std::size_t(6));
    for (const QkvView& view : views.views) {
        QCOMPARE(fusion.groups[view.group].kind, FusionGroup::Kind::Attention);
        QCOMPARE(views.viewFor(view.group), &view);
        QCOMPARE(view.rowStride, 3 * kHidden);
        QCOMPARE(view.offset[0], std::int64_t(0));
        QCOMPARE(view.offset[1], kHidden);
        QCOMPARE(view.offset[2], 2 * kHidden);
        for (const auto& chain : view.chain) {
            QCOMPARE(chain.size(), std::size_t(2)); // Narrow, Reshape
            QCOMPARE(g.nodes[chain.front()].op.kind, OpKind::Narrow);
            QCOMPARE(g.nodes[chain.back()].op.kind, OpKind::Reshape);
            QCOMPARE(*g.indexOf(g.nodes[chain.front()].inputs[0]), view.base);
        }
    }
    for (std::size_t p : narrows)
        QVERIFY(views.isSkipped(p));
    QCOMPARE(skippedCount(views), std::size_t(6));
}
} // namespace

void TestQkvViews::exportedGpt2ReadsQkvInPlace()
{
    const Graph g = exportedGpt2();
    const FusionPlan fusion = planFusion(g, {}, attention());
    checkGpt2Views(g, fusion, planQkvViews(g, {}, fusion));
}

void TestQkvViews::cudaTypesReadQkvInPlace()
{
    // As the CUDA backend plans the benches' graphs (16-bit groups; views for F32, F16 and BF16 attention, which its
    // kernels and cuDNN's SDPA read at any row stride): every layer reads in place, no Narrow runs, in each type.
    const std::vector<DType> cudaTypes = {DType::F32, DType::F16, DType::BF16};
    for (Precision p : {Precision::Fp32, Precision::Bf16, Precision::Fp16}) {
        auto g = edit::withPrecision(exportedGpt2(), p);
        QVERIFY(g);
        const FusionPlan fusion = planFusion(*g, {}, attention(true));
        checkGpt2Views(*g, fusion, planQkvViews(*g, {}, fusion, cudaTypes));
    }
    // A backend whose F32 attention took no strides would leave F32 out: that graph's slices all run.
    const Graph f32 = exportedGpt2();
    const QkvViewPlan none = planQkvViews(f32, {}, planFusion(f32, {}, attention(true)), {DType::F16, DType::BF16});
    QVERIFY(none.views.empty());
    QCOMPARE(skippedCount(none), std::size_t(0));
}

void TestQkvViews::sliceReadElsewhereIsKept()
{
    // The first layer's k slice is a graph output too, and its v slice's Reshape has a second reader: both copies
    // stay; the group still reads all three in place; every other slice is skipped.
    Graph g = exportedGpt2();
    const auto narrows = positionsOf(g, OpKind::Narrow);
    g.outputs.push_back(g.nodes[narrows[1]].id);
    const FusionPlan before = planFusion(g, {}, attention());
    const QkvViewPlan first = planQkvViews(g, {}, before);
    QCOMPARE(first.views.size(), std::size_t(2));
    const std::size_t vReshape = first.views[0].chain[2].back();
    Node reader = g.nodes[vReshape];
    reader.id = g.nodes.back().id + 1;
    reader.op = Op::make(OpKind::Identity);
    reader.inputs = {g.nodes[vReshape].id};
    g.nodes.push_back(reader);
    g.outputs.push_back(reader.id);
    const FusionPlan fusion = planFusion(g, {}, attention());
    const QkvViewPlan views = planQkvViews(g, {}, fusion);
    QCOMPARE(views.views.size(), std::size_t(2));
    QVERIFY(views.isSkipped(narrows[0]));
    QVERIFY(!views.isSkipped(narrows[1]));
    QVERIFY(!views.isSkipped(narrows[2]));
    for (std::size_t i = 3; i < 6; ++i)
        QVERIFY(views.isSkipped(narrows[i]));
    QCOMPARE(skippedCount(views), std::size_t(4));
}

void TestQkvViews::twoTensorsAreNoView()
{
    // The first layer's q sliced from another tensor of width H (the layer's input): that group has no view, its
    // slices run; the second layer's still reads in place.
    Graph g = exportedGpt2();
    const auto narrows = positionsOf(g, OpKind::Narrow);
    const auto norms = positionsOf(g, OpKind::LayerNorm);
    QVERIFY(!norms.empty());
    g.nodes[narrows[0]].inputs = {g.nodes[norms[0]].id};
    const FusionPlan fusion = planFusion(g, {}, attention());
    const QkvViewPlan views = planQkvViews(g, {}, fusion);
    QCOMPARE(views.views.size(), std::size_t(1));
    for (std::size_t i = 0; i < 3; ++i)
        QVERIFY(!views.isSkipped(narrows[i]));
    QCOMPARE(skippedCount(views), std::size_t(3));
}

void TestQkvViews::otherDimsAreNoView()
{
    // A Narrow along the sequence (its input's dim 1) is no slice of a row: no view for the first layer.
    Graph g = exportedGpt2();
    const auto narrows = positionsOf(g, OpKind::Narrow);
    g.nodes[narrows[0]].op.attrs.set("axis", std::int64_t(1));
    g.nodes[narrows[0]].op.attrs.set("start", std::int64_t(0));
    const FusionPlan fusion = planFusion(g, {}, attention());
    const QkvViewPlan views = planQkvViews(g, {}, fusion);
    QCOMPARE(views.views.size(), std::size_t(1));
    QVERIFY(!views.isSkipped(narrows[0]));
}

void TestQkvViews::lastDimSliceIsAView()
{
    // ONNX Slice with constant starts/ends on axis -1 (the import writes them as attributes) in the Narrows' place;
    // a step of 2 is no view.
    Graph g = exportedGpt2();
    const auto narrows = positionsOf(g, OpKind::Narrow);
    for (std::size_t i = 0; i < narrows.size(); ++i) {
        Node& n = g.nodes[narrows[i]];
        const std::int64_t start = n.op.attrs.intOr("start", 0);
        n.op = Op::make(OpKind::Slice);
        n.op.attrs.set("starts", std::vector<std::int64_t>{start});
        n.op.attrs.set("ends", std::vector<std::int64_t>{start + kHidden});
        n.op.attrs.set("axes", std::vector<std::int64_t>{-1});
        if (i == 5)
            n.op.attrs.set("steps", std::vector<std::int64_t>{2});
    }
    const FusionPlan fusion = planFusion(g, {}, attention());
    const QkvViewPlan views = planQkvViews(g, {}, fusion);
    QCOMPARE(views.views.size(), std::size_t(1));
    QCOMPARE(views.views[0].offset[2], 2 * kHidden);
    QCOMPARE(skippedCount(views), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i)
        QVERIFY(views.isSkipped(narrows[i]));
}

void TestQkvViews::noAttentionGroupNoView()
{
    // Attention not fused (COSTSCOPE_CUDA_FUSED_ATTENTION=0): nothing reads in place, every slice runs.
    const Graph g = exportedGpt2();
    const QkvViewPlan views = planQkvViews(g, {}, planFusion(g, {}, {}));
    QVERIFY(views.views.empty());
    QCOMPARE(skippedCount(views), std::size_t(0));
}

QTEST_GUILESS_MAIN(TestQkvViews)
#include "test_qkv_views.moc"
