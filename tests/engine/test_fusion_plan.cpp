// SPDX-License-Identifier: MIT
// The fusion pass's grouping decisions (engine/fusion_plan.h) on small graphs: element-wise chains, diamonds and
// broadcasts that fuse; branches, graph outputs and limits that must not; GEMM epilogues in the order a GEMM
// computes them; the transformer graphs the CUDA bench runs fused.
#include "../bench/bench_cuda_fusion_graphs.h"
#include "../bench/cuda_transformer_graphs.h"
#include "fusion_plan.h"
#include "half.h"

#include <QTest>

#include <cmath>
#include <cstring>

using namespace costscope;
using cudacases::attrs;
using cudacases::Builder;

namespace {
using Dims = std::vector<std::int64_t>;

NodeId binary(Builder& b, const char* op, NodeId x, NodeId y, Dims dims)
{
    return b.op(OpKind::Binary, attrs({{"op", std::string(op)}}), {x, y}, std::move(dims));
}

NodeId activation(Builder& b, const char* op, NodeId x, Dims dims)
{
    return b.op(OpKind::Activation, attrs({{"op", std::string(op)}}), {x}, std::move(dims));
}

NodeId param(Builder& b, Dims dims)
{
    return b.op(OpKind::Param, {}, {}, std::move(dims));
}

// The members of each group as node ids, in the plan's order.
std::vector<std::vector<NodeId>> groupIds(const Graph& g, const FusionPlan& plan)
{
    std::vector<std::vector<NodeId>> out;
    for (const FusionGroup& group : plan.groups) {
        out.emplace_back();
        for (std::size_t m : group.members)
            out.back().push_back(g.nodes[m].id);
    }
    return out;
}

// x -> Add(x, param) -> Relu over [8], the graph's output being the Relu.
Graph addRelu(NodeId* add)
{
    Builder b;
    *add = binary(b, "Add", b.input({8}), param(b, {8}), {8});
    return b.finish(activation(b, "Relu", *add, {8}));
}

FusionOptions withAttention()
{
    FusionOptions o;
    o.attention = true;
    return o;
}

// g with every F32 node in `type` (F16 or BF16), the data of its Params rounded to it, as the precision what-if
// re-types a graph.
Graph retyped(Graph g, DType type)
{
    for (Node& n : g.nodes) {
        if (n.shape.dtype != DType::F32)
            continue;
        n.shape.dtype = type;
        if (!n.data)
            continue;
        std::vector<float> values(n.data->size() / sizeof(float));
        std::memcpy(values.data(), n.data->data(), n.data->size());
        std::vector<std::uint8_t> bytes(values.size() * sizeof(std::uint16_t));
        for (std::size_t i = 0; i < values.size(); ++i) {
            const std::uint16_t bits = type == DType::BF16 ? floatToBf16(values[i]) : floatToHalf(values[i]);
            std::memcpy(bytes.data() + i * sizeof bits, &bits, sizeof bits);
        }
        n.data = makeTensorData(std::move(bytes));
    }
    return g;
}

std::size_t countKind(const FusionPlan& plan, FusionGroup::Kind kind)
{
    return std::size_t(std::count_if(plan.groups.begin(), plan.groups.end(),
                                     [&](const FusionGroup& group) { return group.kind == kind; }));
}
} // namespace

class TestFusionPlan : public QObject {
    Q_OBJECT
private slots:
    void sixteenBitGroupsWhenAsked();
    void chainFusesIntoOneGroup();
    void diamondFusesWhole();
    void branchToAnotherKernelDoesNotFuse();
    void graphOutputsStayMaterialized();
    void smallerOperandsBroadcastIntoTheExit();
    void castsFromIntegersJoin();
    void inputLimitSplitsGroups();
    void unresolvedShapesDoNotFuse();
    void gemmEpilogueTakesBiasResidualAndActivation();
    void gemmEpilogueStopsWhereAnEpilogueCannot();
    void fusedMatMulBiasActIsItsOwnEpilogue();
    void batchedWeightsAreNoEpilogue();
    void transformerGroups();
    void optionsTurnKindsOff();
    void exportedAttentionIsOneGroup();
    void batchedHeadsAttentionIsOneGroup();
    void attentionNeedsItsWholePattern();
    void sixteenBitAttentionWhenAsked();
};

void TestFusionPlan::chainFusesIntoOneGroup()
{
    Builder b;
    const NodeId x = b.input({4, 8});
    const NodeId mul = binary(b, "Mul", x, param(b, {4, 8}), {4, 8});
    const NodeId add = binary(b, "Add", mul, param(b, {4, 8}), {4, 8});
    const NodeId relu = activation(b, "Relu", add, {4, 8});
    const Graph g = b.finish(relu);
    const FusionPlan plan = planFusion(g, {});
    QCOMPARE(groupIds(g, plan), (std::vector<std::vector<NodeId>>{{mul, add, relu}}));
    QCOMPARE(plan.groups[0].kind, FusionGroup::Kind::ElementWise);
    QVERIFY(plan.isInternal(*g.indexOf(mul)));
    QVERIFY(!plan.isInternal(*g.indexOf(relu)));
    QVERIFY(!plan.isFused(*g.indexOf(x)));
    QCOMPARE(fusionGroupName(g, plan.groups[0]), std::string("Binary.Mul+Binary.Add+Activation.Relu"));
}

void TestFusionPlan::sixteenBitGroupsWhenAsked()
{
    // bf16 MatMul + bias + Relu (an epilogue), then Mul + Tanh (an element-wise group): F32-only backends fuse none
    // of it; a backend with 16-bit kernels (FusionOptions::sixteenBit) fuses both, each in one storage type.
    Builder b;
    const NodeId x = b.input({4, 8});
    const NodeId mm = b.op(OpKind::MatMul, {}, {x, param(b, {8, 8})}, {4, 8});
    const NodeId bias = param(b, {8});
    const NodeId add = binary(b, "Add", mm, bias, {4, 8});
    const NodeId relu = activation(b, "Relu", add, {4, 8});
    const NodeId mul = binary(b, "Mul", relu, param(b, {4, 8}), {4, 8});
    const NodeId tanh = activation(b, "Tanh", mul, {4, 8});
    Graph g = b.finish(tanh);
    for (Node& n : g.nodes)
        n.shape.dtype = DType::BF16;
    QVERIFY(planFusion(g, {}).groups.empty());
    FusionOptions o;
    o.sixteenBit = true;
    const FusionPlan plan = planFusion(g, {}, o);
    QCOMPARE(groupIds(g, plan), (std::vector<std::vector<NodeId>>{{mm, add, relu}, {mul, tanh}}));
    QCOMPARE(plan.groups[0].kind, FusionGroup::Kind::GemmEpilogue);
    QCOMPARE(plan.groups[0].bias, g.indexOf(bias));
    QCOMPARE(plan.groups[1].kind, FusionGroup::Kind::ElementWise);
    // An f16 bias on a bf16 product is no epilogue (one storage type) and no element-wise op (mixed operands).
    g.find(bias)->shape.dtype = DType::F16;
    QCOMPARE(groupIds(g, planFusion(g, {}, o)), (std::vector<std::vector<NodeId>>{{relu, mul, tanh}}));
}

void TestFusionPlan::diamondFusesWhole()
{
    // m feeds two members that meet again: every reader of m is inside, so m's value never leaves the kernel.
    Builder b;
    const NodeId x = b.input({16});
    const NodeId m = binary(b, "Mul", x, x, {16});
    const NodeId left = activation(b, "Tanh", m, {16});
    const NodeId right = activation(b, "Sigmoid", m, {16});
    const NodeId sum = binary(b, "Add", left, right, {16});
    const Graph g = b.finish(sum);
    const FusionPlan plan = planFusion(g, {});
    QCOMPARE(plan.groups.size(), std::size_t(1));
    QCOMPARE(plan.groups[0].members.size(), std::size_t(4));
    QCOMPARE(g.nodes[plan.groups[0].members.front()].id, m);
    QCOMPARE(g.nodes[plan.groups[0].exit()].id, sum);
    // Both branches join the exit's group at once: the op limit still holds.
    FusionOptions o;
    o.maxOps = 2;
    for (const FusionGroup& group : planFusion(g, {}, o).groups)
        QVERIFY(group.members.size() <= 2);
}

void TestFusionPlan::branchToAnotherKernelDoesNotFuse()
{
    // m is read by two activations that end in a Concat: neither activation's group may keep m inside.
    Builder b;
    const NodeId x = b.input({16});
    const NodeId m = binary(b, "Mul", x, param(b, {16}), {16});
    const NodeId left = activation(b, "Tanh", m, {16});
    const NodeId right = activation(b, "Relu", m, {16});
    const NodeId cat = b.op(OpKind::Concat, attrs({{"axis", std::int64_t(0)}}), {left, right}, {32});
    const Graph g = b.finish(cat);
    QVERIFY(planFusion(g, {}).groups.empty());
}

void TestFusionPlan::graphOutputsStayMaterialized()
{
    NodeId add = 0;
    Graph g = addRelu(&add);
    const NodeId relu = g.outputs.front();
    g.outputs = {add, relu};
    QVERIFY(planFusion(g, {}).groups.empty());
    // The output may still be a group's exit.
    g.outputs = {relu};
    QCOMPARE(planFusion(g, {}).groups.size(), std::size_t(1));
}

void TestFusionPlan::smallerOperandsBroadcastIntoTheExit()
{
    Builder b;
    const NodeId x = b.input({2, 3, 4});
    const NodeId scale = binary(b, "Mul", param(b, {4}), param(b, {1}), {4});
    const NodeId shifted = binary(b, "Sub", x, scale, {2, 3, 4});
    const NodeId out = binary(b, "Div", shifted, param(b, {3, 1}), {2, 3, 4});
    const Graph g = b.finish(out);
    const FusionPlan plan = planFusion(g, {});
    QCOMPARE(groupIds(g, plan), (std::vector<std::vector<NodeId>>{{scale, shifted, out}}));
}

void TestFusionPlan::castsFromIntegersJoin()
{
    Builder b;
    const NodeId ids = b.input({6}, DType::I64);
    const NodeId f = b.op(OpKind::Cast, attrs({{"to", std::string("F32")}}), {ids}, {6});
    const NodeId y = binary(b, "Mul", f, param(b, {6}), {6});
    // A Cast to an integer type and a Compare (Bool result) stay outside.
    const NodeId back = b.op(OpKind::Cast, attrs({{"to", std::string("I64")}}), {y}, {6}, DType::I64);
    const Graph g = b.finish(back);
    const FusionPlan plan = planFusion(g, {});
    QCOMPARE(groupIds(g, plan), (std::vector<std::vector<NodeId>>{{f, y}}));
}

void TestFusionPlan::inputLimitSplitsGroups()
{
    Builder b;
    NodeId cur = b.input({32});
    std::vector<NodeId> adds;
    for (int i = 0; i < 6; ++i)
        adds.push_back(cur = binary(b, "Add", cur, param(b, {32}), {32}));
    const Graph g = b.finish(cur);
    FusionOptions o;
    o.maxInputs = 4;
    const FusionPlan plan = planFusion(g, {}, o);
    // The exit takes the last three Adds (four tensors read: three params and the chain's entry); the rest form
    // a second group.
    QCOMPARE(groupIds(g, plan),
             (std::vector<std::vector<NodeId>>{{adds[3], adds[4], adds[5]}, {adds[0], adds[1], adds[2]}}));
    o.maxInputs = 8;
    o.maxOps = 2;
    QCOMPARE(planFusion(g, {}, o).groups.size(), std::size_t(3));
}

void TestFusionPlan::unresolvedShapesDoNotFuse()
{
    NodeId add = 0;
    Graph g = addRelu(&add);
    for (Node& n : g.nodes)
        n.shape.dims = {Dim::named("n")};
    QVERIFY(planFusion(g, {}).groups.empty());
    QCOMPARE(planFusion(g, {{"n", 8}}).groups.size(), std::size_t(1));
}

void TestFusionPlan::gemmEpilogueTakesBiasResidualAndActivation()
{
    Builder b;
    const NodeId x = b.input({2, 3, 4});
    const NodeId residual = b.input({2, 3, 5});
    const NodeId mm = b.op(OpKind::MatMul, {}, {x, param(b, {4, 5})}, {2, 3, 5});
    const NodeId bias = binary(b, "Add", param(b, {5}), mm, {2, 3, 5});
    const NodeId res = binary(b, "Add", bias, residual, {2, 3, 5});
    const NodeId relu = activation(b, "Relu", res, {2, 3, 5});
    const NodeId after = binary(b, "Mul", relu, relu, {2, 3, 5});
    const Graph g = b.finish(after);
    const FusionPlan plan = planFusion(g, {});
    QCOMPARE(groupIds(g, plan), (std::vector<std::vector<NodeId>>{{mm, bias, res, relu}}));
    QCOMPARE(plan.groups[0].kind, FusionGroup::Kind::GemmEpilogue);
}

void TestFusionPlan::gemmEpilogueStopsWhereAnEpilogueCannot()
{
    // The exact (erf) GELU is not cuBLASLt's; a second residual, or an Add after the activation, are not epilogues.
    Builder b;
    const NodeId x = b.input({3, 4});
    const NodeId mm = b.op(OpKind::MatMul, {}, {x, param(b, {4, 5})}, {3, 5});
    const NodeId bias = binary(b, "Add", mm, param(b, {5}), {3, 5});
    const NodeId gelu = activation(b, "Gelu", bias, {3, 5});
    const NodeId mm2 = b.op(OpKind::MatMul, {}, {gelu, param(b, {5, 5})}, {3, 5});
    const NodeId relu = activation(b, "Relu", mm2, {3, 5});
    const NodeId add = binary(b, "Add", relu, param(b, {3, 5}), {3, 5});
    const NodeId mm3 = b.op(OpKind::MatMul, {}, {add, param(b, {5, 5})}, {3, 5});
    const NodeId r1 = binary(b, "Add", mm3, param(b, {3, 5}), {3, 5});
    const NodeId r2 = binary(b, "Add", r1, param(b, {3, 5}), {3, 5});
    const Graph g = b.finish(r2);
    const FusionPlan plan = planFusion(g, {});
    QCOMPARE(groupIds(g, plan), (std::vector<std::vector<NodeId>>{{mm, bias}, {mm2, relu}, {mm3, r1}}));
    QVERIFY(!plan.isFused(*g.indexOf(gelu)));
    QVERIFY(!plan.isFused(*g.indexOf(add)));
    QVERIFY(!plan.isFused(*g.indexOf(r2)));
}

void TestFusionPlan::fusedMatMulBiasActIsItsOwnEpilogue()
{
    Builder b;
    const NodeId x = b.input({3, 4});
    const NodeId withGelu = b.op(OpKind::FusedMatMulBiasAct, attrs({{"activation", std::string("GeluApprox")}}),
                                 {x, param(b, {4, 4}), param(b, {4})}, {3, 4});
    const NodeId biasOnly = b.op(OpKind::FusedMatMulBiasAct, {}, {withGelu, param(b, {4, 4}), param(b, {4})}, {3, 4});
    const NodeId residual = binary(b, "Add", withGelu, biasOnly, {3, 4});
    const NodeId erf = b.op(OpKind::FusedMatMulBiasAct, attrs({{"activation", std::string("Gelu")}}),
                            {residual, param(b, {4, 4}), param(b, {4})}, {3, 4});
    const Graph g = b.finish(erf);
    const FusionPlan plan = planFusion(g, {});
    QCOMPARE(groupIds(g, plan), (std::vector<std::vector<NodeId>>{{withGelu}, {biasOnly, residual}}));
}

void TestFusionPlan::batchedWeightsAreNoEpilogue()
{
    Builder b;
    const NodeId x = b.input({2, 3, 4});
    const NodeId mm = b.op(OpKind::MatMul, {}, {x, param(b, {2, 4, 5})}, {2, 3, 5});
    const NodeId bias = binary(b, "Add", mm, param(b, {5}), {2, 3, 5});
    const NodeId mm2 = b.op(OpKind::MatMul, {}, {bias, param(b, {5, 5})}, {2, 3, 5});
    const NodeId bias2 = binary(b, "Add", mm2, param(b, {5}), {2, 3, 5});
    Graph g = b.finish(bias2);
    g.outputs = {mm2, bias2};
    // Neither fuses: mm's weight is batched, mm2 is an output itself.
    QVERIFY(planFusion(g, {}).groups.empty());
}

void TestFusionPlan::transformerGroups()
{
    cudacases::TransformerConfig c;
    c.layers = 2;
    {
        const Graph g = cudacases::transformerGraph(c);
        const FusionPlan plan = planFusion(g, {});
        // Per layer: the QKV projection (bias), the output projection with its residual, the MLP's first layer
        // (bias + GeluApprox) and its second with the residual.
        QCOMPARE(countKind(plan, FusionGroup::Kind::GemmEpilogue), std::size_t(4 * c.layers));
        QCOMPARE(countKind(plan, FusionGroup::Kind::ElementWise), std::size_t(0));
    }
    c.decomposed = true;
    {
        const Graph g = cudacases::transformerGraph(c);
        const FusionPlan plan = planFusion(g, {});
        QCOMPARE(countKind(plan, FusionGroup::Kind::GemmEpilogue), std::size_t(4 * c.layers));
        // The spelt-out GELU of each layer is one kernel of all its nine element-wise nodes.
        QCOMPARE(countKind(plan, FusionGroup::Kind::ElementWise), std::size_t(c.layers));
        for (const FusionGroup& group : plan.groups)
            if (group.kind == FusionGroup::Kind::ElementWise)
                QCOMPARE(group.members.size(), std::size_t(9));
    }
    c.causal = false;
    c.decomposed = false;
    const Graph bert = cudacases::transformerGraph(c);
    // BERT's MLP uses the exact GELU: its first layer is no epilogue; the pooler's Tanh neither.
    QCOMPARE(countKind(planFusion(bert, {}), FusionGroup::Kind::GemmEpilogue), std::size_t(3 * c.layers));
}

void TestFusionPlan::optionsTurnKindsOff()
{
    cudacases::TransformerConfig c;
    c.layers = 1;
    c.decomposed = true;
    const Graph g = cudacases::transformerGraph(c);
    FusionOptions o;
    o.gemmEpilogue = false;
    const FusionPlan noGemm = planFusion(g, {}, o);
    QCOMPARE(countKind(noGemm, FusionGroup::Kind::GemmEpilogue), std::size_t(0));
    QVERIFY(countKind(noGemm, FusionGroup::Kind::ElementWise) >= 1);
    o.elementWise = false;
    QVERIFY(planFusion(g, {}, o).groups.empty());
}

void TestFusionPlan::exportedAttentionIsOneGroup()
{
    // The heads-interleaved form of an ONNX export: the three Transposes in, the Transpose out, scale and mask.
    const cudacases::AttentionGraph a = cudacases::attentionGraph({});
    const Graph& g = a.graph;
    const FusionPlan plan = planFusion(g, {}, withAttention());
    QCOMPARE(plan.groups.size(), std::size_t(1));
    const FusionGroup& group = plan.groups[0];
    QCOMPARE(group.kind, FusionGroup::Kind::Attention);
    QCOMPARE(group.members.size(), std::size_t(9)); // 3 Transposes, MatMul, Mul, Add, Softmax, MatMul, Transpose
    QCOMPARE(g.nodes[group.exit()].id, a.exit);
    QCOMPARE(g.nodes[group.attention.q].id, a.q);
    QCOMPARE(g.nodes[group.attention.k].id, a.k);
    QCOMPARE(g.nodes[group.attention.v].id, a.v);
    QVERIFY(group.attention.mask && g.nodes[*group.attention.mask].id == a.mask);
    QCOMPARE(group.attention.heads, std::int64_t(4));
    QVERIFY(std::abs(group.attention.scale - 0.25) < 1e-7);
    for (NodeId id : {a.matmulQK, a.softmax, a.matmulPV})
        QVERIFY(plan.isInternal(*g.indexOf(id)));
    QVERIFY(!plan.isFused(*g.indexOf(a.mask)));
    QVERIFY(!plan.isFused(*g.indexOf(a.q)));
}

void TestFusionPlan::batchedHeadsAttentionIsOneGroup()
{
    // [batch, heads, seq, head_dim] throughout, scores divided by sqrt(head_dim), no mask: k^T's Transpose joins.
    cudacases::AttentionGraphConfig c;
    c.interleaved = false;
    c.causalMask = false;
    c.divide = true;
    c.headDim = 64;
    const cudacases::AttentionGraph a = cudacases::attentionGraph(c);
    const FusionPlan plan = planFusion(a.graph, {}, withAttention());
    QCOMPARE(plan.groups.size(), std::size_t(1));
    const FusionGroup& group = plan.groups[0];
    QCOMPARE(group.kind, FusionGroup::Kind::Attention);
    QCOMPARE(group.members.size(), std::size_t(5)); // Transpose of k, MatMul, Div, Softmax, MatMul
    QCOMPARE(a.graph.nodes[group.exit()].id, a.matmulPV);
    QCOMPARE(a.graph.nodes[group.attention.k].id, a.k);
    QCOMPARE(group.attention.heads, std::int64_t(1));
    QVERIFY(!group.attention.mask);
    QVERIFY(std::abs(group.attention.scale - 0.125) < 1e-7);
}

void TestFusionPlan::attentionNeedsItsWholePattern()
{
    {
        // The scores are a graph output too: they must be written, so nothing fuses across them.
        cudacases::AttentionGraph a = cudacases::attentionGraph({});
        a.graph.outputs.push_back(a.softmax);
        QCOMPARE(countKind(planFusion(a.graph, {}, withAttention()), FusionGroup::Kind::Attention), std::size_t(0));
    }
    {
        // A scale that is no constant of one value: the kernel cannot take it.
        cudacases::AttentionGraph a = cudacases::attentionGraph({});
        a.graph.nodes[*a.graph.indexOf(a.scale)].data.reset();
        QCOMPARE(countKind(planFusion(a.graph, {}, withAttention()), FusionGroup::Kind::Attention), std::size_t(0));
    }
    {
        // Softmax over another axis is no attention.
        cudacases::AttentionGraph a = cudacases::attentionGraph({});
        a.graph.nodes[*a.graph.indexOf(a.softmax)].op.attrs.set("axis", std::int64_t(2));
        QCOMPARE(countKind(planFusion(a.graph, {}, withAttention()), FusionGroup::Kind::Attention), std::size_t(0));
    }
    {
        // Off (the default), the scale and mask fuse as an element-wise group instead.
        const cudacases::AttentionGraph a = cudacases::attentionGraph({});
        const FusionPlan plan = planFusion(a.graph, {});
        QCOMPARE(countKind(plan, FusionGroup::Kind::Attention), std::size_t(0));
        QCOMPARE(countKind(plan, FusionGroup::Kind::ElementWise), std::size_t(1));
    }
}

void TestFusionPlan::sixteenBitAttentionWhenAsked()
{
    // The exported pattern in bf16 or fp16, head dim 24 (a scale of 1/sqrt(24) that the 16-bit constant rounds), with
    // the mask in the same type: one attention group where the backend has 16-bit kernels, none (and the F32-only
    // element-wise groups neither) without; the scale is the stored constant's exact value.
    for (const bool divide : {false, true})
        for (const DType type : {DType::BF16, DType::F16}) {
            cudacases::AttentionGraphConfig c;
            c.headDim = 24;
            c.divide = divide;
            const cudacases::AttentionGraph a = cudacases::attentionGraph(c);
            const Graph g = retyped(a.graph, type);
            FusionOptions o = withAttention();
            QCOMPARE(countKind(planFusion(g, {}, o), FusionGroup::Kind::Attention), std::size_t(0));
            o.sixteenBit = true;
            const FusionPlan plan = planFusion(g, {}, o);
            QCOMPARE(plan.groups.size(), std::size_t(1));
            const FusionGroup& group = plan.groups[0];
            QCOMPARE(group.kind, FusionGroup::Kind::Attention);
            QCOMPARE(group.members.size(), std::size_t(9));
            QCOMPARE(g.nodes[group.attention.q].id, a.q);
            QVERIFY(group.attention.mask && g.nodes[*group.attention.mask].id == a.mask);
            const float stored = divide ? std::sqrt(24.0f) : 1.0f / std::sqrt(24.0f);
            const double decoded =
                type == DType::BF16 ? bf16ToFloat(floatToBf16(stored)) : halfToFloat(floatToHalf(stored));
            QVERIFY(decoded != double(stored)); // the rounding is visible, so the check below tells the two apart
            QCOMPARE(group.attention.scale, divide ? 1.0 / decoded : decoded);
        }
    // The GPT-2 bench graph with attention written out as an export writes it (bench_cuda_sixteen_bit), in bf16:
    // one attention kernel per layer.
    cudacases::TransformerConfig t;
    t.layers = 2;
    t.seq = 128;
    t.decomposed = t.exportedAttention = true;
    const Graph gpt2 = retyped(cudacases::transformerGraph(t), DType::BF16);
    FusionOptions sixteen = withAttention();
    sixteen.sixteenBit = true;
    QCOMPARE(countKind(planFusion(gpt2, {}, sixteen), FusionGroup::Kind::Attention), std::size_t(2));
    QCOMPARE(countKind(planFusion(gpt2, {}, withAttention()), FusionGroup::Kind::Attention), std::size_t(0));
    // Mixed types (an F32 mask over bf16 scores, bf16 q with F32 k): no group.
    const cudacases::AttentionGraph a = cudacases::attentionGraph({});
    FusionOptions o = withAttention();
    o.sixteenBit = true;
    Graph maskF32 = retyped(a.graph, DType::BF16);
    Node& mask = maskF32.nodes[*maskF32.indexOf(a.mask)];
    mask = a.graph.nodes[*a.graph.indexOf(a.mask)];
    QCOMPARE(countKind(planFusion(maskF32, {}, o), FusionGroup::Kind::Attention), std::size_t(0));
    Graph kF32 = retyped(a.graph, DType::BF16);
    kF32.nodes[*kF32.indexOf(a.k)].shape.dtype = DType::F32;
    QCOMPARE(countKind(planFusion(kF32, {}, o), FusionGroup::Kind::Attention), std::size_t(0));
}

QTEST_GUILESS_MAIN(TestFusionPlan)
#include "test_fusion_plan.moc"
