// SPDX-License-Identifier: MIT
// Graph edits as pure functions: every edit kind, its shape inference, its refusals, fusing, copy/paste, templates.
#include "analysis/fuse_what_if.h"
#include "analysis/io_profile.h"
#include "analysis/op_cost.h"
#include "edit/edit_parse.h"
#include "edit/fuse_nodes.h"
#include "edit/graph_edits.h"
#include "edit/graph_templates.h"
#include "formats/graph_file.h"
#include "formats/rlx_json.h"
#include "ir/fused_op.h"
#include "ir/validate.h"
#include "test_paths.h"

#include <QtTest>

using namespace costscope;
using namespace costscope::edit;

namespace {

Graph tinyTransformer()
{
    auto loaded = loadGraphFile(test::sourcePath("resources/examples/tiny_transformer.hir.json").toStdString());
    if (!loaded)
        qFatal("tiny_transformer: %s", loaded.error().message.c_str());
    return loaded->graph;
}

bool hasProblem(const Graph& g, NodeId id, const std::string& part)
{
    for (const NodeProblem& p : graphProblems(g))
        if (p.id == id && p.message.find(part) != std::string::npos)
            return true;
    return false;
}

double flopsOf(const Graph& g, NodeId id, const Bindings& b)
{
    const Node* n = g.find(id);
    InputShapes in;
    for (NodeId i : n->inputs)
        in.push_back(&g.find(i)->shape);
    return opWork(*n, in, b).flops;
}

} // namespace

class TestGraphEdits : public QObject {
    Q_OBJECT
private slots:
    void parsesShapesAndAttributeValues()
    {
        auto s = parseShape("F32[batch, 784]");
        QVERIFY(s);
        QCOMPARE(QString::fromStdString(s->toString()), QStringLiteral("F32[batch,784]"));
        QCOMPARE(QString::fromStdString(parseShape("[2,3]")->toString()), QStringLiteral("F32[2,3]"));
        QCOMPARE(QString::fromStdString(parseShape("I64[]")->toString()), QStringLiteral("I64[]"));
        QVERIFY(QString::fromStdString(parseShape("Q8[2]").error().message).contains("unknown dtype Q8"));
        QVERIFY(QString::fromStdString(parseShape("F32[2,-1]").error().message).contains("negative dim"));
        QVERIFY(QString::fromStdString(parseShape("F32[4294967296,4294967296]").error().message).contains("overflows"));
        QVERIFY(QString::fromStdString(parseShape("F32[1,1,1,1,1,1,1,1,1]").error().message).contains("rank 9"));

        QCOMPARE(*parseAttrValue(std::int64_t{1}, " 42 "), AttrValue{std::int64_t{42}});
        QVERIFY(QString::fromStdString(parseAttrValue(std::int64_t{1}, "4.5").error().message)
                    .contains("expected an integer"));
        QCOMPARE(*parseAttrValue(1.0, "1e-5"), AttrValue{1e-5});
        QCOMPARE(*parseAttrValue(false, "true"), AttrValue{true});
        QCOMPARE(*parseAttrValue(std::vector<std::int64_t>{}, "[2, 0, 1]"), (AttrValue{std::vector<std::int64_t>{2, 0, 1}}));
        QCOMPARE(*parseAttrValue(std::vector<std::int64_t>{}, "3,4"), (AttrValue{std::vector<std::int64_t>{3, 4}}));
        QCOMPARE(*parseAttrValue(std::string{}, "Gelu"), AttrValue{std::string("Gelu")});
        QCOMPARE(*parseAttrValue(AttrValue{}, "0.125"), AttrValue{0.125});
        QCOMPARE(*parseAttrValue(AttrValue{}, "Causal"), AttrValue{std::string("Causal")});
        QVERIFY(!parseAttrValue(RawJson{"{}"}, "{oops"));
    }

    void addNodeInfersItsShape()
    {
        Graph g = makeTemplate(GraphTemplate::Mlp);
        const NodeId out = g.outputs.front();
        Node relu;
        relu.op = defaultOp(OpKind::Activation);
        relu.inputs = {out};
        NodeId id = -1;
        auto edited = addNode(g, relu, &id);
        QVERIFY(edited);
        QCOMPARE(id, g.nextId());
        QCOMPARE(QString::fromStdString(edited->find(id)->shape.toString()), QStringLiteral("F32[batch,10]"));
        QVERIFY(graphProblems(*edited).empty());

        relu.inputs = {999};
        QVERIFY(QString::fromStdString(addNode(g, relu).error().message).contains("no node 999"));
    }

    void connectAppendsReplacesAndRefuses()
    {
        Graph g;
        g.name = "scratch";
        NodeId a = -1, b = -1, add = -1;
        Node x;
        x.op = defaultOp(OpKind::Input);
        x.shape = *parseShape("F32[4,8]");
        g = *addNode(g, x, &a);
        g = *addNode(g, x, &b);
        Node sum;
        sum.op = defaultOp(OpKind::Binary);
        g = *addNode(g, sum, &add);
        QVERIFY(hasProblem(g, add, "input")); // Binary with no inputs: arity

        g = *edit::connect(g, a, add, 0);
        g = *edit::connect(g, b, add, 1);
        QCOMPARE(g.find(add)->inputs, (std::vector<NodeId>{a, b}));
        QCOMPARE(QString::fromStdString(g.find(add)->shape.toString()), QStringLiteral("F32[4,8]"));
        QVERIFY(graphProblems(g).empty());

        g = *edit::connect(g, a, add, 1); // replace
        QCOMPARE(g.find(add)->inputs, (std::vector<NodeId>{a, a}));
        QVERIFY(QString::fromStdString(edit::connect(g, b, add, 2).error().message).contains("at most 2"));
        QVERIFY(QString::fromStdString(edit::connect(g, add, a, 0).error().message).contains("takes no inputs"));
        QVERIFY(QString::fromStdString(edit::connect(g, b, add, 5).error().message).contains("cannot connect input 5"));

        Node relu;
        relu.op = defaultOp(OpKind::Activation);
        relu.inputs = {add};
        NodeId r = -1;
        g = *addNode(g, relu, &r);
        QVERIFY(QString::fromStdString(edit::connect(g, r, add, 0).error().message).contains("cycle"));

        auto cut = removeEdges(g, {{a, add}});
        QVERIFY(cut);
        QVERIFY(cut->find(add)->inputs.empty()); // both uses of a go
        QVERIFY(QString::fromStdString(removeEdges(g, {{b, add}}).error().message).contains("does not read node"));

        g = *edit::disconnect(g, add, 1);
        QCOMPARE(g.find(add)->inputs.size(), std::size_t{1});
        QVERIFY(hasProblem(g, add, "input"));
    }

    void shapeEditsPropagateAndMisfitsAreProblems()
    {
        Graph g = makeTemplate(GraphTemplate::Mlp);
        QVERIFY(graphProblems(g).empty());
        const NodeId x = g.nodes.front().id;
        auto edited = setLeafShape(g, x, "F32[batch,100]");
        QVERIFY(edited);
        // fc1's MatMul now multiplies [batch,100] by [784,512]: invalid, and named.
        bool named = false;
        for (const NodeProblem& p : graphProblems(*edited))
            named |= edited->find(p.id)->op.kind == OpKind::MatMul;
        QVERIFY(named);
        QVERIFY(!setLeafShape(g, g.outputs.front(), "F32[1]"));
        QVERIFY(QString::fromStdString(setLeafShape(g, x, "F32[batch").error().message).contains("expected DTYPE"));

        // A batch-free input flows through: the output becomes [32,10].
        auto fixed = setLeafShape(g, x, "F32[32,784]");
        QCOMPARE(QString::fromStdString(fixed->find(g.outputs.front())->shape.toString()), QStringLiteral("F32[32,10]"));
    }

    void attributeEditsReinferDownstream()
    {
        Graph g = tinyTransformer();
        // Node 53 is the head MatMul [batch,16,32]; transposing the softmax input changes nothing there, but
        // changing Attention's heads to a misfit makes it invalid.
        auto bad = setAttribute(g, 10, "num_heads", "5");
        QVERIFY(bad);
        QVERIFY(hasProblem(*bad, 10, ""));
        QVERIFY(QString::fromStdString(setAttribute(g, 10, "num_heads", "many").error().message).contains("num_heads"));

        Node t;
        t.op = defaultOp(OpKind::Transpose);
        t.op.attrs.set("perm", std::vector<std::int64_t>{0, 2, 1});
        t.inputs = {54};
        NodeId tid = -1;
        g = *addNode(g, t, &tid);
        QCOMPARE(QString::fromStdString(g.find(tid)->shape.toString()), QStringLiteral("F32[batch,32,16]"));
        g = *setAttribute(g, tid, "perm", "[1,0,2]");
        QCOMPARE(QString::fromStdString(g.find(tid)->shape.toString()), QStringLiteral("F32[16,batch,32]"));
    }

    void renameRemoveOutputsAndScopes()
    {
        Graph g = tinyTransformer();
        g = *rename(g, 0, "tokens");
        QCOMPARE(QString::fromStdString(g.find(0)->displayName()), QStringLiteral("tokens"));
        g = *rename(g, 53, "logits");
        QCOMPARE(QString::fromStdString(g.find(53)->displayName()), QStringLiteral("logits"));
        QVERIFY(!rename(g, 0, ""));

        g = *setOutput(g, 53, true);
        QVERIFY(g.isOutput(53));
        auto removed = removeNodes(g, {53, 54});
        QVERIFY(removed);
        QVERIFY(removed->outputs.empty());
        QVERIFY(!removed->find(53));
        QCOMPARE(removed->nodes.size(), g.nodes.size() - 2);

        auto noHead = removeNodes(g, {52}); // MatMul 53 loses its weight input: invalid
        QVERIFY(hasProblem(*noHead, 53, "input"));
        QVERIFY(!removeNodes(g, {12345}));

        g = *setScope(g, {19, 20, 21}, "blockA/mlp");
        QCOMPARE(QString::fromStdString(g.find(20)->scope), QStringLiteral("blockA/mlp"));
    }

    void copyPasteReconnectsInTheSameGraph()
    {
        const Graph g = tinyTransformer();
        const Graph frag = copyFragment(g, {19, 20, 21}); // MatMul, Add bias, Gelu
        QCOMPARE(frag.nodes.size(), std::size_t{6});       // + Inputs standing for 16, 17, 18
        QVERIFY(validateGraph(frag).empty());
        // The clipboard carries RLX JSON: the fragment survives the trip, markers included.
        auto clip = parseRlxJson(writeRlxJson(frag));
        QVERIFY(clip);
        std::vector<NodeId> ids;
        auto pasted = pasteFragment(g, *clip, &ids);
        QVERIFY(pasted);
        QCOMPARE(ids.size(), std::size_t{3});
        QCOMPARE(pasted->nodes.size(), g.nodes.size() + 3);
        QCOMPARE(pasted->find(ids[0])->inputs, (std::vector<NodeId>{16, 17})); // outside producers kept
        QCOMPARE(pasted->find(ids[1])->inputs, (std::vector<NodeId>{ids[0], 18}));
        QCOMPARE(pasted->find(ids[2])->shape, g.find(21)->shape);
        QVERIFY(graphProblems(*pasted).empty());

        // Into another graph: the entering tensors become Inputs of their own, so the pasted part is valid.
        Graph empty = makeTemplate(GraphTemplate::Empty);
        auto elsewhere = pasteFragment(empty, *clip, &ids);
        QVERIFY(elsewhere);
        QCOMPARE(elsewhere->nodes.size(), std::size_t{6});
        QCOMPARE(elsewhere->find(ids[3])->inputs, (std::vector<NodeId>{ids[0], ids[1]}));
        QCOMPARE(elsewhere->find(ids[0])->op.kind, OpKind::Input);
        QVERIFY(elsewhere->find(ids[0])->extras.empty());
        QCOMPARE(elsewhere->find(ids[5])->shape, g.find(21)->shape);
        QVERIFY(graphProblems(*elsewhere).empty());
    }

    void fuseMakesOneKernelWithTheMembersWork()
    {
        const Graph g = tinyTransformer();
        const std::vector<NodeId> set{19, 20, 21, 23}; // fc1 MatMul, bias Add, Gelu, fc2 MatMul
        NodeId fusedId = -1;
        auto fused = fuseNodes(g, set, &fusedId);
        QVERIFY2(fused, fused ? "" : fused.error().message.c_str());
        QCOMPARE(fusedId, NodeId{23});
        QCOMPARE(fused->nodes.size(), g.nodes.size() - 3);
        const Node* f = fused->find(23);
        QVERIFY(isFusedNode(*f));
        QCOMPARE(f->inputs, (std::vector<NodeId>{16, 17, 18, 22}));
        QCOMPARE(f->shape, g.find(23)->shape);
        QCOMPARE(fused->find(24)->inputs, (std::vector<NodeId>{13, 23}));
        QVERIFY(graphProblems(*fused).empty());

        const Bindings b{{"batch", 8}};
        const double members = flopsOf(g, 19, b) + flopsOf(g, 20, b) + flopsOf(g, 21, b) + flopsOf(g, 23, b);
        QCOMPARE(flopsOf(*fused, 23, b), members);
        // One launch instead of four, and the same boundary traffic as the what-if computes.
        const auto whatIf = fuseWhatIf(g, set, b);
        QVERIFY(whatIf);
        const IoProfile after = ioProfile(*fused, b);
        QCOMPARE(after.kernelLaunches, whatIf->after.kernelLaunches);
        QCOMPARE(after.deviceTrafficBytes, whatIf->after.deviceTrafficBytes);

        // The fused node survives an RLX JSON round trip (an op RLX does not know, kept verbatim).
        auto reloaded = parseRlxJson(writeRlxJson(*fused));
        QVERIFY(reloaded);
        QVERIFY(isFusedNode(*reloaded->find(23)));
        QCOMPARE(flopsOf(*reloaded, 23, b), members);
    }

    void fuseRefusals()
    {
        const Graph g = tinyTransformer();
        auto message = [&](std::vector<NodeId> ids) {
            auto r = fuseNodes(g, ids);
            return r ? QString() : QString::fromStdString(r.error().message);
        };
        // 13 (residual Add) is read by 24 and 16 (LayerNorm) by 19: two outputs leave the set.
        QCOMPARE(message({13, 16}), QStringLiteral("the selection has 2 nodes whose output is used outside it (13, 16); "
                                                   "a fused node has one output: add their consumers or drop some of them"));
        QVERIFY(message({5, 7}).contains(QStringLiteral("is not connected")));
        QVERIFY(message({3, 5, 10}).contains(QStringLiteral("leaves it and comes back"))); // 3 → 7 → 10 goes around
        QVERIFY(message({1}).contains(QStringLiteral("nothing to fuse")));
        QVERIFY(message({}).contains(QStringLiteral("no nodes")));
        QVERIFY(message({999}).contains(QStringLiteral("no node with id 999")));
        QVERIFY(fuseNodes(g, {19, 20})); // MatMul + bias: one exit
    }

    void templatesAreValid_data()
    {
        QTest::addColumn<int>("which");
        for (const TemplateInfo& t : graphTemplates())
            QTest::newRow(t.title.c_str()) << static_cast<int>(t.id);
    }
    void templatesAreValid()
    {
        QFETCH(int, which);
        const Graph g = makeTemplate(static_cast<GraphTemplate>(which));
        QVERIFY(graphProblems(g).empty());
        QVERIFY(!g.topologicalOrder().value().empty() || g.nodes.empty());
        for (const Node& n : g.nodes)
            QVERIFY2(!n.shape.dims.empty() || n.op.kind == OpKind::Input, n.op.label().c_str());
        auto reloaded = parseRlxJson(writeRlxJson(g));
        QVERIFY(reloaded);
        QCOMPARE(reloaded->nodes.size(), g.nodes.size());
    }

    void templateShapes()
    {
        const Graph mlpGraph = makeTemplate(GraphTemplate::Mlp);
        QCOMPARE(QString::fromStdString(mlpGraph.find(mlpGraph.outputs.front())->shape.toString()),
                 QStringLiteral("F32[batch,10]"));
        const Graph block = makeTemplate(GraphTemplate::TransformerBlock);
        QCOMPARE(QString::fromStdString(block.find(block.outputs.front())->shape.toString()),
                 QStringLiteral("F32[batch,128,256]"));
    }
};

QTEST_GUILESS_MAIN(TestGraphEdits)
#include "test_graph_edits.moc"
