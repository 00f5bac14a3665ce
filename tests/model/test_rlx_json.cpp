// SPDX-License-Identifier: MIT
#include "formats/graph_file.h"
#include "formats/rlx_json.h"
#include "ir/validate.h"
#include "test_paths.h"

#include <QDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace costscope;
using namespace costscope::test;

class TestRlxJson : public QObject {
    Q_OBJECT
private slots:
    void sharedFilesRoundTrip_data();
    void sharedFilesRoundTrip();
    void mnistStructure();
    void bareOpsAndMirWrappedLoadTheSame();
    void unknownOpsAndKeysSurvive();
    void symbolsRoundTrip();
    void constantDataIsRead();
    void parameterisedSubOpsKeepTheirAttributes();
    void brokenSubgraphsAreNamed();
};

void TestRlxJson::sharedFilesRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    const QString dir = sharedPath("data/rlx");
    if (dir.isEmpty())
        return;
    for (const QString& f : QDir(dir).entryList({"*.json"}, QDir::Files))
        QTest::newRow(qPrintable(f)) << dir + '/' + f;
}

void TestRlxJson::sharedFilesRoundTrip()
{
    COSTSCOPE_REQUIRE_SHARED();
    QFETCH(QString, path);
    auto loaded = loadGraphFile(path.toStdString());
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().format(path.toStdString()).c_str());
    QVERIFY(!loaded->graph.nodes.empty());
    QVERIFY(validateGraph(loaded->graph).empty());
    const std::string text = writeRlxJson(loaded->graph);
    auto again = parseRlxJson(text);
    QVERIFY(again.ok());
    QVERIFY(*again == loaded->graph);
    QCOMPARE(writeRlxJson(*again), text);
}

void TestRlxJson::mnistStructure()
{
    COSTSCOPE_REQUIRE_SHARED();
    auto loaded = loadGraphFile(sharedPath("data/rlx/mnist.hir.json").toStdString());
    QVERIFY(loaded.ok());
    const Graph& g = loaded->graph;
    QCOMPARE(g.name, std::string("mnist"));
    QCOMPARE(g.nodes.size(), std::size_t(22));
    QCOMPARE(g.outputs, std::vector<NodeId>{21});
    const Node* conv = g.find(7);
    QVERIFY(conv);
    QCOMPARE(conv->op.kind, OpKind::Conv);
    QCOMPARE(conv->op.attrs.getInts("kernel_size").value(), (std::vector<std::int64_t>{3, 3}));
    QCOMPARE(conv->shape.toString(), std::string("F32[4,8,28,28]"));
    QCOMPARE(g.find(9)->op.label(), std::string("Binary.Add"));
    QCOMPARE(g.find(1)->scope, std::string("c1"));
    QCOMPARE(g.find(1)->displayName(), std::string("c1.weight"));
    QCOMPARE(g.find(20)->op.kind, OpKind::MatMul);
    QCOMPARE(g.extras.size(), std::size_t(1)); // fusion_policy
}

void TestRlxJson::bareOpsAndMirWrappedLoadTheSame()
{
    const std::string wrapped = R"({"name":"t","nodes":[
      {"id":0,"op":{"Input":{"name":"x"}},"inputs":[],"shape":{"dims":[{"Static":2}],"dtype":"F32"},"name":null},
      {"id":1,"op":{"Mir":{"Activation":"Relu"}},"inputs":[0],"shape":{"dims":[{"Static":2}],"dtype":"F32"},"name":null}],
      "outputs":[1]})";
    std::string bare = wrapped;
    bare.replace(bare.find(R"({"Mir":{"Activation":"Relu"}})"), 29, R"({"Activation":"Relu"})");
    auto a = parseRlxJson(wrapped);
    auto b = parseRlxJson(bare);
    QVERIFY(a.ok());
    QVERIFY2(b.ok(), b.ok() ? "" : b.error().message.c_str());
    QVERIFY(*a == *b);
    QCOMPARE(b->nodes[1].op.subOp(), std::string("Relu"));
}

void TestRlxJson::unknownOpsAndKeysSurvive()
{
    const std::string text = R"({"name":"u","nodes":[
      {"id":0,"op":{"Input":{"name":"x"}},"inputs":[],"shape":{"dims":[{"Static":4}],"dtype":"F16"},"name":null,"origin":{"file":"a.py","line":3}},
      {"id":1,"op":{"Mir":{"FancyNewOp":{"alpha":0.5,"mode":{"Nested":[1,2]}}}},"inputs":[0,0],"shape":{"dims":[{"Static":4}],"dtype":"F16"},"name":"fancy"},
      {"id":2,"op":{"Mir":"SomethingBare"},"inputs":[1],"shape":{"dims":[{"Static":4}],"dtype":"F16"},"name":null}],
      "outputs":[2],"fusion_policy":"Direct","future_key":[1,{"a":null}]})";
    Diagnostics warnings;
    auto g = parseRlxJson(text, &warnings);
    QVERIFY(g.ok());
    QCOMPARE(g->nodes[1].op.kind, OpKind::Unknown);
    QCOMPARE(g->nodes[1].op.name, std::string("FancyNewOp"));
    QCOMPARE(g->nodes[1].inputs, (std::vector<NodeId>{0, 0}));
    QCOMPARE(warnings.size(), std::size_t(2));
    QVERIFY(warnings[0].format("f").find("node 1 (fancy): warning: unknown op FancyNewOp") != std::string::npos);
    const std::string out = writeRlxJson(*g);
    QVERIFY(out.find(R"("FancyNewOp":{"alpha":0.5,"mode":{"Nested":[1,2]}})") != std::string::npos);
    QVERIFY(out.find(R"("origin":{"file":"a.py","line":3})") != std::string::npos);
    QVERIFY(out.find(R"("future_key":[1,{"a":null}])") != std::string::npos);
    QVERIFY(out.find(R"({"Mir":"SomethingBare"})") != std::string::npos);
    auto again = parseRlxJson(out);
    QVERIFY(again.ok());
    QVERIFY(*again == *g);
}

void TestRlxJson::symbolsRoundTrip()
{
    const std::string text = R"({"name":"s","nodes":[
      {"id":0,"op":{"Input":{"name":"x"}},"inputs":[],"shape":{"dims":[{"Dynamic":0},{"Dynamic":1},{"Dynamic":7},{"Static":16}],"dtype":"F32"},"name":null}],
      "outputs":[0]})";
    auto g = parseRlxJson(text);
    QVERIFY(g.ok());
    QCOMPARE(g->nodes[0].shape.toString(), std::string("F32[batch,seq,s7,16]"));
    QCOMPARE(g->symbols(), (std::vector<std::string>{"batch", "s7", "seq"}));
    QVERIFY(!g->nodes[0].shape.bytes().has_value());
    QCOMPARE(g->nodes[0].shape.bytes({{"batch", 2}, {"seq", 3}, {"s7", 5}}).value(), std::uint64_t(2 * 3 * 5 * 16 * 4));
    Graph custom = *g;
    custom.nodes[0].shape.dims[2] = Dim::named("heads");
    auto back = parseRlxJson(writeRlxJson(custom));
    QVERIFY(back.ok());
    QCOMPARE(back->nodes[0].shape.toString(), std::string("F32[batch,seq,heads,16]"));
}

void TestRlxJson::constantDataIsRead()
{
    COSTSCOPE_REQUIRE_SHARED();
    auto loaded = loadGraphFile(sharedPath("data/rlx/cnn.hir.json").toStdString());
    QVERIFY(loaded.ok());
    const Node* c = loaded->graph.find(22);
    QVERIFY(c && c->op.kind == OpKind::Constant && c->data);
    QCOMPARE(std::vector<std::uint8_t>(c->data->begin(), c->data->end()),
             (std::vector<std::uint8_t>{172, 197, 39, 55}));
    float value = 0;
    std::memcpy(&value, c->data->data(), 4);
    QVERIFY(std::abs(value - 1e-5f) < 1e-9f);
}

void TestRlxJson::parameterisedSubOpsKeepTheirAttributes()
{
    Graph g;
    g.name = "leaky";
    Node x;
    x.id = 0;
    Attrs xa;
    xa.set("name", std::string("x"));
    x.op = Op::make(OpKind::Input, xa);
    x.shape = Shape::of({4});
    Node act;
    act.id = 1;
    Attrs aa;
    aa.set("op", std::string("LeakyRelu"));
    aa.set("alpha", 0.25);
    act.op = Op::make(OpKind::Activation, aa);
    act.inputs = {0};
    act.shape = Shape::of({4});
    g.nodes = {x, act};
    g.outputs = {1};
    const std::string text = writeRlxJson(g);
    QVERIFY(text.find(R"({"Activation":{"op":"LeakyRelu","alpha":0.25}})") != std::string::npos);
    auto back = parseRlxJson(text);
    QVERIFY(back.ok());
    QVERIFY(*back == g);
    QCOMPARE(back->nodes[1].op.attrs.getDouble("alpha").value(), 0.25);
    // A plain sub-op keeps RLX's own spelling.
    g.nodes[1].op.attrs.erase("alpha");
    QVERIFY(writeRlxJson(g).find(R"({"Mir":{"Activation":"LeakyRelu"}})") != std::string::npos);
}

void TestRlxJson::brokenSubgraphsAreNamed()
{
    // A Loop whose body reads enclosing input 5 of a node with two inputs, and one whose body has no nodes array.
    const std::string head = R"({"name":"l","nodes":[
      {"id":0,"op":{"Input":{"name":"x"}},"inputs":[],"shape":{"dims":[{"Static":2}],"dtype":"F32"},"name":null},
      {"id":1,"op":{"Mir":"Loop"},"inputs":[0,0],"shape":{"dims":[{"Static":2}],"dtype":"F32"},"name":"loop",
       "costscope_subgraphs":[{"attribute":"body",)";
    const std::string body = R"("graph":{"name":"body","nodes":[
      {"id":0,"op":{"Input":{"name":"y"}},"inputs":[],"shape":{"dims":[{"Static":2}],"dtype":"F32"},"name":null}],
      "outputs":[0]}}]}],"outputs":[1]})";
    auto ok = parseRlxJson(head + R"("outer_inputs":[1],)" + body);
    QVERIFY2(ok, ok ? "" : ok.error().message.c_str());
    QCOMPARE(ok->nodes[1].subgraphs.size(), std::size_t(1));
    QCOMPARE(ok->nodes[1].subgraphs[0].graph->nodes.size(), std::size_t(1));
    auto outOfRange = parseRlxJson(head + R"("outer_inputs":[5],)" + body);
    QVERIFY(!outOfRange);
    QVERIFY2(outOfRange.error().format("f").find("loop") != std::string::npos
                 && outOfRange.error().message.find("outer_inputs") != std::string::npos,
             outOfRange.error().format("f").c_str());
    auto noNodes = parseRlxJson(head + R"("outer_inputs":[],"graph":{"outputs":[]}}]}],"outputs":[1]})");
    QVERIFY(!noNodes);
    QVERIFY2(noNodes.error().message.find("its body") != std::string::npos
                 && noNodes.error().message.find("nodes") != std::string::npos,
             noNodes.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestRlxJson)
#include "test_rlx_json.moc"
