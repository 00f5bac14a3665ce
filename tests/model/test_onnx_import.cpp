// SPDX-License-Identifier: MIT
// ONNX import of the shared models: node counts and histograms (checked against the python `onnx` package with the
// import's folding rules), output shapes as the files state them, opset, scopes, Split → Narrow, and the CLI.
#include "formats/graph_file.h"
#include "formats/onnx_import.h"
#include "ir/validate.h"
#include "test_paths.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace costscope;
using namespace costscope::test;

namespace {
#define REQUIRE_ONNX()                                                                                                 \
    do {                                                                                                               \
        if (!onnxImportAvailable())                                                                                    \
            QSKIP("this build has no ONNX import (libonnx not found)");                                               \
    } while (0)

std::map<std::string, int> histogram(const Graph& g)
{
    std::map<std::string, int> h;
    for (const Node& n : g.nodes)
        ++h[n.op.label()];
    return h;
}

const Node* findByName(const Graph& g, const std::string& name)
{
    for (const Node& n : g.nodes)
        if (n.displayName() == name)
            return &n;
    return nullptr;
}

std::string extra(const Graph& g, const std::string& key)
{
    for (const auto& [k, v] : g.extras)
        if (k == key)
            return v.text;
    return {};
}
} // namespace

class TestOnnxImport : public QObject {
    Q_OBJECT
private slots:
    void sharedModels_data();
    void sharedModels();
    void alexnetAttributes();
    void gpt2Structure();
    void bertStructure();
    void cliInfo();
    void gpt2ImportTime();
};

void TestOnnxImport::sharedModels_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("leaves"); // Param + Constant nodes
    QTest::addColumn<QString>("outputs");
    QTest::addColumn<QString>("opset");
    QTest::addColumn<QString>("spotOp");
    QTest::addColumn<int>("spotCount");
    QTest::newRow("alexnet") << "light/light_bvlc_alexnet.onnx" << 57 << 16 << "F32[1,1000]" << "9" << "Lrn" << 2;
    QTest::newRow("inception_v1") << "light/light_inception_v1.onnx" << 354 << 116 << "F32[1,1000]" << "9" << "Conv"
                                  << 57;
    QTest::newRow("resnet50") << "light/light_resnet50.onnx" << 683 << 267 << "F32[1,1000]" << "9" << "Conv" << 53;
    QTest::newRow("squeezenet") << "light/light_squeezenet.onnx" << 158 << 52 << "F32[1,1000,1,1]" << "9"
                                << "GlobalPool" << 1;
    QTest::newRow("vgg19") << "light/light_vgg19.onnx" << 121 << 38 << "F32[1,1000]" << "9" << "Conv" << 16;
    QTest::newRow("bert_12l") << "transformers/bert_12l.onnx" << 589 << 98 << "F32[2,32,64] F32[2,64]" << "17"
                              << "MatMul" << 96;
    QTest::newRow("gpt2_12l") << "transformers/gpt2_12l.onnx" << 618 << 70 << "F32[2,32,1000]" << "17" << "Narrow"
                              << 36;
}

void TestOnnxImport::sharedModels()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    QFETCH(QString, file);
    QFETCH(int, nodes);
    QFETCH(int, leaves);
    QFETCH(QString, outputs);
    QFETCH(QString, opset);
    QFETCH(QString, spotOp);
    QFETCH(int, spotCount);
    const std::string path = sharedPath("data/onnx/" + file).toStdString();
    auto loaded = loadGraphFile(path);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().format(path).c_str());
    QCOMPARE(loaded->format, GraphFormat::Onnx);
    QVERIFY2(loaded->warnings.empty(), loaded->warnings.empty() ? "" : loaded->warnings[0].format(path).c_str());
    const Graph& g = loaded->graph;
    QCOMPARE(int(g.nodes.size()), nodes);
    QVERIFY(validateGraph(g).empty());

    auto h = histogram(g);
    QCOMPARE(h["Param"] + h["Constant"], leaves);
    QCOMPARE(h["Input"], 1);
    QCOMPARE(h[spotOp.toStdString()], spotCount);
    QCOMPARE(h.count("Unknown"), std::size_t(0));

    // Ids run 0..N-1 and every input comes earlier: the ids are a topological order.
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        QCOMPARE(g.nodes[i].id, NodeId(i));
        for (NodeId in : g.nodes[i].inputs)
            QVERIFY(in < g.nodes[i].id);
        QVERIFY2(g.nodes[i].op.kind != OpKind::Param || g.nodes[i].data, g.nodes[i].displayName().c_str());
    }
    QStringList shapes;
    for (NodeId o : g.outputs)
        shapes << QString::fromStdString(g.find(o)->shape.toString());
    QCOMPARE(shapes.join(' '), outputs);
    QCOMPARE(QString::fromStdString(extra(g, "onnx_opset")), opset);
}

void TestOnnxImport::alexnetAttributes()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    auto loaded = loadGraphFile(sharedPath("data/onnx/light/light_bvlc_alexnet.onnx").toStdString());
    QVERIFY(loaded.ok());
    const Graph& g = loaded->graph;

    const Node* conv2 = findByName(g, "n4");
    QVERIFY(conv2);
    QCOMPARE(conv2->op.attrs.intsOr("kernel_size", {}), (std::vector<std::int64_t>{5, 5}));
    QCOMPARE(conv2->op.attrs.intsOr("padding", {}), (std::vector<std::int64_t>{2, 2}));
    QCOMPARE(conv2->op.attrs.intOr("groups", 0), std::int64_t(2));
    // The weight is a ConstantOfShape of a constant shape: its shape comes from shape inference.
    const Node* w = g.find(conv2->inputs[1]);
    QCOMPARE(w->op.kind, OpKind::ConstantOfShape);
    QCOMPARE(w->shape.toString(), std::string("F32[256,48,5,5]"));
    QCOMPARE(w->op.attrs.stringOr("dtype", ""), std::string("F32"));
    QVERIFY(std::abs(w->op.attrs.doubleOr("value", 0) - 0.02) < 1e-7);

    const Node* lrn = findByName(g, "n2");
    QCOMPARE(lrn->op.kind, OpKind::Lrn);
    QCOMPARE(lrn->op.attrs.intOr("size", 0), std::int64_t(5));
    QVERIFY(std::abs(lrn->op.attrs.doubleOr("alpha", 0) - 1e-4) < 1e-9);
    QCOMPARE(lrn->op.attrs.doubleOr("beta", 0), 0.75);
    QCOMPARE(lrn->op.attrs.doubleOr("bias", 0), 1.0);

    // pads [0,0,1,1]: asymmetric, so the end pads are given separately.
    const Node* pool = findByName(g, "n14");
    QCOMPARE(pool->op.attrs.stringOr("kind", ""), std::string("Max"));
    QCOMPARE(pool->op.attrs.intsOr("padding", {}), (std::vector<std::int64_t>{0, 0}));
    QCOMPARE(pool->op.attrs.intsOr("padding_end", {}), (std::vector<std::int64_t>{1, 1}));
    QCOMPARE(pool->op.attrs.intsOr("stride", {}), (std::vector<std::int64_t>{2, 2}));

    const Node* reshape = findByName(g, "n15");
    QCOMPARE(reshape->inputs.size(), std::size_t(1));
    QCOMPARE(reshape->op.attrs.intsOr("new_shape", {}), (std::vector<std::int64_t>{1, 9216}));
    const Node* dropout = findByName(g, "n18");
    QCOMPARE(dropout->op.attrs.doubleOr("ratio", 0), 0.5);
    QCOMPARE(dropout->inputs.size(), std::size_t(1));
}

void TestOnnxImport::gpt2Structure()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    auto loaded = loadGraphFile(sharedPath("data/onnx/transformers/gpt2_12l.onnx").toStdString());
    QVERIFY(loaded.ok());
    const Graph& g = loaded->graph;

    const Node* ln = findByName(g, "node_layer_norm");
    QVERIFY(ln);
    QCOMPARE(ln->op.kind, OpKind::LayerNorm);
    QCOMPARE(ln->op.attrs.intOr("axis", 0), std::int64_t(-1));
    const Node* w = g.find(ln->inputs[1]);
    QCOMPARE(w->op.kind, OpKind::Param);
    QCOMPARE(w->displayName(), std::string("transformer.h.0.ln_1.weight"));
    QCOMPARE(w->scope, std::string("transformer/h/0/ln_1"));
    QCOMPARE(w->data->size(), std::size_t(64 * 4));
    // The exporter shares this weight among all 25 LayerNorms, so it lends them no scope.
    QCOMPARE(g.consumers()[std::size_t(w->id)].size(), std::size_t(25));
    QCOMPARE(ln->scope, std::string());

    // Reshape of the token ids: the shape input is an initializer, folded into new_shape.
    const Node* view = findByName(g, "node_view");
    QVERIFY(view);
    QCOMPARE(view->inputs.size(), std::size_t(1));
    QCOMPARE(view->op.attrs.intsOr("new_shape", {}), (std::vector<std::int64_t>{2, 32}));

    const Node* gemm = findByName(g, "node_Gemm_122");
    QVERIFY(gemm);
    QCOMPARE(gemm->scope, std::string("transformer/h/0/attn/c_attn"));

    // The q/k/v Split of the first layer: three Narrows of 64 along axis 2, named for their outputs.
    std::vector<const Node*> parts;
    for (const char* name : {"split_split_0", "split_split_1", "split_split_2"})
        parts.push_back(findByName(g, name));
    for (std::size_t i = 0; i < parts.size(); ++i) {
        QVERIFY(parts[i]);
        QCOMPARE(parts[i]->op.kind, OpKind::Narrow);
        QCOMPARE(parts[i]->op.attrs.intOr("axis", -1), std::int64_t(2));
        QCOMPARE(parts[i]->op.attrs.intOr("start", -1), std::int64_t(64 * i));
        QCOMPARE(parts[i]->op.attrs.intOr("len", -1), std::int64_t(64));
        QCOMPARE(parts[i]->inputs, parts[0]->inputs);
        QCOMPARE(parts[i]->shape.toString(), std::string("F32[2,32,64]"));
        QCOMPARE(parts[i]->scope, std::string("transformer/h/0/attn/c_attn"));
    }
    const Node* gelu = findByName(g, "node_tanh_11");
    QVERIFY(gelu);
    QCOMPARE(gelu->scope, std::string("transformer/h/11/mlp/c_fc"));
}

void TestOnnxImport::bertStructure()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    auto loaded = loadGraphFile(sharedPath("data/onnx/transformers/bert_12l.onnx").toStdString());
    QVERIFY(loaded.ok());
    const Graph& g = loaded->graph;
    const Node* input = findByName(g, "input_ids");
    QVERIFY(input);
    QCOMPARE(input->op.kind, OpKind::Input);
    QCOMPARE(input->shape.toString(), std::string("I64[2,32]"));
    const Node* gather = findByName(g, "node_embedding");
    QVERIFY(gather);
    QCOMPARE(gather->op.kind, OpKind::Gather);
    QCOMPARE(gather->scope, std::string("embeddings/word_embeddings"));
    QCOMPARE(gather->shape.toString(), std::string("F32[2,32,64]"));
    // Its projection weights are anonymous ("val_37"): the MatMul starts an unnamed group rather than staying in
    // the embeddings' scope.
    const Node* q = findByName(g, "node_MatMul_36");
    QVERIFY(q);
    QCOMPARE(g.find(q->inputs[1])->displayName(), std::string("val_37"));
    QCOMPARE(q->scope, std::string());
    const Node* pooler = findByName(g, "node_tanh");
    QVERIFY(pooler);
    QCOMPARE(pooler->scope, std::string("pooler/dense"));
}

void TestOnnxImport::cliInfo()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    QByteArray out, err;
    const int rc = runCli({"info", sharedPath("data/onnx/light/light_resnet50.onnx")}, &out, &err);
    QVERIFY2(rc == 0, err.constData());
    QVERIFY(out.contains("nodes:       683"));
    QVERIFY(out.contains("gpu_0/data_0  F32[1,3,224,224]"));
}

void TestOnnxImport::gpt2ImportTime()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    auto bytes = readFileBytes(sharedPath("data/onnx/transformers/gpt2_12l.onnx").toStdString());
    QVERIFY(bytes.ok());
    std::vector<qint64> times;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        auto g = importOnnx(*bytes);
        times.push_back(t.nsecsElapsed());
        QVERIFY(g.ok());
        QCOMPARE(g->nodes.size(), std::size_t(618));
    }
    std::sort(times.begin(), times.end());
    qInfo("gpt2_12l.onnx import: median of 5 = %.1f ms", double(times[2]) / 1e6);
}

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "test_onnx_import.moc"
