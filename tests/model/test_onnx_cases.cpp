// SPDX-License-Identifier: MIT
// ONNX import of the single-op conformance cases (all import; the ones Costscope has no op for load as unknown ops
// with a warning), attribute mapping on a few of them, and broken files (tests/data/bad, made by make_bad_onnx.py).
#include "formats/graph_file.h"
#include "formats/onnx_import.h"
#include "formats/rlx_json.h"
#include "test_paths.h"

#include <QDirIterator>
#include <QTest>

#include <cstring>

using namespace costscope;
using namespace costscope::test;

namespace {
#define REQUIRE_ONNX()                                                                                                 \
    do {                                                                                                               \
        if (!onnxImportAvailable())                                                                                    \
            QSKIP("this build has no ONNX import (libonnx not found)");                                               \
    } while (0)

const Node& only(const Graph& g, OpKind kind)
{
    const Node* found = nullptr;
    for (const Node& n : g.nodes)
        if (n.op.kind == kind) {
            if (found)
                throw std::runtime_error("more than one node of the kind");
            found = &n;
        }
    if (!found)
        throw std::runtime_error("no node of the kind");
    return *found;
}

LoadedGraph loadCase(const QString& name)
{
    QDirIterator it(sharedPath("data/onnx/node"), {name}, QDir::Dirs, QDirIterator::Subdirectories);
    if (!it.hasNext())
        throw std::runtime_error("no such node case");
    auto loaded = loadGraphFile((it.next() + "/model.onnx").toStdString());
    if (!loaded)
        throw std::runtime_error(loaded.error().message);
    return std::move(*loaded);
}

using Ints = std::vector<std::int64_t>;
} // namespace

class TestOnnxCases : public QObject {
    Q_OBJECT
private slots:
    void nodeCasesImport();
    void convAttributes();
    void gemmAndPadAttributes();
    void splitBecomesNarrows();
    void constantsAndFoldedInputs();
    void badFiles_data();
    void badFiles();
    void opset18ImportsWithoutWarning();
    void gemm6WithRank1InputDoesNotCrashInference();
    void dynamicDimsBecomeSymbols();
    void failedShapeInferenceFallsBack();
    void unknownOpsKeepAttributes();
    void invalidUtf8IsReplaced();
};

void TestOnnxCases::nodeCasesImport()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    // Cases whose ops Costscope has no op for: sequences, strings and training gradients load as unknown ops.
    const QStringList unknownPrefixes = {"test_sequence_model", "test_strnorm_model", "test_gradient_of_add"};
    int cases = 0;
    int unknownCases = 0;
    QDirIterator it(sharedPath("data/onnx/node"), {"model.onnx"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString name = QFileInfo(path).dir().dirName();
        auto loaded = loadGraphFile(path.toStdString());
        if (!loaded)
            QFAIL(qPrintable(name + ": " + QString::fromStdString(loaded.error().message)));
        ++cases;
        int unknownOps = 0;
        for (const Node& n : loaded->graph.nodes)
            unknownOps += n.op.kind == OpKind::Unknown ? 1 : 0;
        bool unknownWarned = false;
        for (const Diagnostic& d : loaded->warnings)
            unknownWarned = unknownWarned || d.message.find("loaded as an unknown op") != std::string::npos;
        const bool expectUnknown =
            std::any_of(unknownPrefixes.begin(), unknownPrefixes.end(), [&](const QString& p) { return name.startsWith(p); });
        QVERIFY2(expectUnknown == (unknownOps > 0), qPrintable(name));
        QVERIFY2(expectUnknown == unknownWarned, qPrintable(name));
        if (!expectUnknown && !loaded->warnings.empty())
            QFAIL(qPrintable(name + ": " + QString::fromStdString(loaded->warnings[0].message)));
        unknownCases += expectUnknown ? 1 : 0;
    }
    QCOMPARE(cases, 140);
    QCOMPARE(unknownCases, 16);
}

void TestOnnxCases::convAttributes()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    const Node groups = only(loadCase("test_Conv2d_groups").graph, OpKind::Conv);
    QCOMPARE(groups.op.attrs.intsOr("kernel_size", {}), (Ints{3, 2}));
    QCOMPARE(groups.op.attrs.intsOr("stride", {}), (Ints{1, 1}));
    QCOMPARE(groups.op.attrs.intsOr("padding", {}), (Ints{0, 0}));
    QCOMPARE(groups.op.attrs.intsOr("dilation", {}), (Ints{1, 1}));
    QCOMPARE(groups.op.attrs.intOr("groups", 0), std::int64_t(2));
    QVERIFY(!groups.op.attrs.has("padding_end"));
    QCOMPARE(groups.inputs.size(), std::size_t(3));

    const Node dilated = only(loadCase("test_Conv2d_dilated").graph, OpKind::Conv);
    QCOMPARE(dilated.op.attrs.intsOr("dilation", {}), (Ints{2, 2}));
    QCOMPARE(dilated.op.attrs.intsOr("stride", {}), (Ints{2, 2}));
    QCOMPARE(dilated.op.attrs.intsOr("padding", {}), (Ints{1, 1}));

    const Node noBias = only(loadCase("test_Conv2d_no_bias").graph, OpKind::Conv);
    QCOMPARE(noBias.inputs.size(), std::size_t(2));

    const Node pool = only(loadCase("test_MaxPool1d_stride_padding_dilation").graph, OpKind::Pool);
    QCOMPARE(pool.op.attrs.stringOr("kind", ""), std::string("Max"));
    QVERIFY(pool.op.attrs.has("kernel_size") && pool.op.attrs.has("stride") && pool.op.attrs.has("padding"));
}

void TestOnnxCases::gemmAndPadAttributes()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    const Node gemm = only(loadCase("test_Linear").graph, OpKind::Gemm);
    QCOMPARE(gemm.op.attrs.getBool("trans_b"), std::optional<bool>(true));
    QCOMPARE(gemm.op.attrs.getBool("trans_a"), std::optional<bool>(false));
    QCOMPARE(gemm.op.attrs.doubleOr("alpha", 0), 1.0);
    QCOMPARE(gemm.op.attrs.doubleOr("beta", 0), 1.0);

    const Node pad = only(loadCase("test_ConstantPad2d").graph, OpKind::Pad);
    QCOMPARE(pad.op.attrs.stringOr("mode", ""), std::string("constant"));
    QCOMPARE(pad.op.attrs.intsOr("pads", {}), (Ints{0, 0, 3, 1, 0, 0, 4, 2}));
    QCOMPARE(pad.op.attrs.doubleOr("value", 0), 2.0);
    QCOMPARE(pad.inputs.size(), std::size_t(1));

    const Node clip = only(loadCase("test_operator_clip").graph, OpKind::Clip);
    QCOMPARE(clip.op.attrs.doubleOr("min", 0), -0.5);
    QCOMPARE(clip.op.attrs.doubleOr("max", 0), 0.5);
}

void TestOnnxCases::splitBecomesNarrows()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    const Graph chunk = loadCase("test_operator_chunk").graph;
    std::vector<const Node*> narrows;
    for (const Node& n : chunk.nodes)
        if (n.op.kind == OpKind::Narrow)
            narrows.push_back(&n);
    QCOMPARE(narrows.size(), std::size_t(2));
    QCOMPARE(narrows[0]->op.attrs.intOr("start", -1), std::int64_t(0));
    QCOMPARE(narrows[0]->op.attrs.intOr("len", -1), std::int64_t(2));
    QCOMPARE(narrows[1]->op.attrs.intOr("start", -1), std::int64_t(2));
    QCOMPARE(narrows[1]->op.attrs.intOr("len", -1), std::int64_t(1));
    QCOMPARE(chunk.outputs.size(), std::size_t(2));

    // GLU splits the last axis in two equal halves: axis -1 is made non-negative.
    const Graph glu = loadCase("test_GLU").graph;
    const Node* first = nullptr;
    for (const Node& n : glu.nodes)
        if (n.op.kind == OpKind::Narrow && !first)
            first = &n;
    QVERIFY(first);
    const Node& input = *glu.find(first->inputs[0]);
    QCOMPARE(first->op.attrs.intOr("axis", -1), std::int64_t(input.shape.rank() - 1));
    QCOMPARE(first->op.attrs.intOr("len", -1) * 2, input.shape.dims.back().value);
}

void TestOnnxCases::constantsAndFoldedInputs()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    const Graph add = loadCase("test_operator_addconstant").graph;
    const Node& c = only(add, OpKind::Constant);
    QVERIFY(c.data);
    QCOMPARE(c.data->size(), std::size_t(*c.shape.bytes()));

    // Slice of opset 6 takes starts/ends/axes as attributes; steps are written out.
    const Node slice = only(loadCase("test_operator_index").graph, OpKind::Slice);
    QCOMPARE(slice.op.attrs.intsOr("starts", {}), (Ints{0}));
    QCOMPARE(slice.op.attrs.intsOr("ends", {}), (Ints{1}));
    QCOMPARE(slice.op.attrs.intsOr("steps", {}), (Ints{1}));
    QCOMPARE(slice.inputs.size(), std::size_t(1));

    // A Reshape whose shape is a Constant node: folded into new_shape, and the Constant leaves no node.
    const Graph shuffle = loadCase("test_PixelShuffle").graph;
    for (const Node& n : shuffle.nodes) {
        QVERIFY(n.op.kind != OpKind::Constant);
        if (n.op.kind == OpKind::Reshape) {
            QCOMPARE(n.inputs.size(), std::size_t(1));
            QVERIFY(n.op.attrs.has("new_shape"));
        }
    }
}

void TestOnnxCases::badFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("truncated") << "truncated.onnx"
                               << "not a valid ONNX model: the protobuf data is truncated or corrupt (7809 bytes)";
    QTest::newRow("random") << "random_bytes.onnx"
                            << "not a valid ONNX model: the protobuf data is truncated or corrupt (512 bytes)";
    QTest::newRow("empty") << "empty.onnx" << "the file is empty: no ONNX model in it";
    QTest::newRow("conv without W") << "conv_missing_weight.onnx"
                                    << "ONNX node #0 'conv_no_weight' (Conv): Conv needs inputs X and W, has 1 input(s)";
    QTest::newRow("pool without kernel") << "pool_missing_kernel.onnx"
                                         << "ONNX node #0 'pool_no_kernel' (MaxPool): the required attribute "
                                            "kernel_shape is missing";
    QTest::newRow("undefined input") << "undefined_input.onnx"
                                     << "ONNX node #0 'add_ghost' (Add): input 'ghost' is not produced by any earlier "
                                        "node, initializer or graph input";
    QTest::newRow("duplicate graph input") << "duplicate_graph_input.onnx"
                                           << "graph input 'b' is declared twice: an ONNX graph names each value once";
    QTest::newRow("dropout mask used") << "dropout_mask_used.onnx"
                                       << "ONNX node #0 'drop' (Dropout): output 1 ('mask') is used, but Costscope "
                                          "represents only output 0 of Dropout (needed by ONNX node #1 'use_mask' (Cast))";
}

void TestOnnxCases::badFiles()
{
    REQUIRE_ONNX();
    QFETCH(QString, file);
    QFETCH(QString, message);
    auto loaded = loadGraphFile(testDataPath("bad/" + file).toStdString());
    QVERIFY(!loaded.ok());
    QCOMPARE(QString::fromStdString(loaded.error().message), message);
    QVERIFY(loaded.error().isError());
}

// libonnx 1.12 crashed inferring this Gemm (found by fuzz_onnx_import); guarded, the node just has no shape.
void TestOnnxCases::gemm6WithRank1InputDoesNotCrashInference()
{
    REQUIRE_ONNX();
    auto loaded = loadGraphFile(testDataPath("bad/gemm6_rank1_b.onnx").toStdString());
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
    QCOMPARE(loaded->warnings.size(), std::size_t(1));
    QVERIFY(loaded->warnings[0].message.find("no shape is known for 'y'") != std::string::npos);
    QCOMPARE(loaded->graph.nodes.back().op.label(), std::string("Gemm"));
}

void TestOnnxCases::opset18ImportsWithoutWarning()
{
    REQUIRE_ONNX();
    // Opsets 18 to 21 are read with their own meaning (past libonnx's 17): no warning.
    auto loaded = loadGraphFile(testDataPath("bad/opset18_known_ops.onnx").toStdString());
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
    QCOMPARE(loaded->warnings.size(), std::size_t(0));
    const Graph& g = loaded->graph;
    QCOMPARE(g.nodes.size(), std::size_t(3));
    for (const Node& n : g.nodes)
        QCOMPARE(n.shape.toString(), std::string("F32[1,3,8,8]"));
    QCOMPARE(g.nodes[1].op.label(), std::string("Activation.Relu"));
    QCOMPARE(g.nodes[2].op.label(), std::string("Binary.Add"));
}

void TestOnnxCases::dynamicDimsBecomeSymbols()
{
    REQUIRE_ONNX();
    auto loaded = loadGraphFile(testDataPath("bad/dynamic_dims.onnx").toStdString());
    QVERIFY(loaded.ok());
    const Graph& g = loaded->graph;
    QCOMPARE(g.nodes[0].shape.toString(), std::string("F32[batch,3,unk_x_2]"));
    QCOMPARE(g.nodes[0].shape.dims[0], Dim::named("batch"));
    // Inference carries the input's symbols to the output.
    QCOMPARE(g.find(g.outputs[0])->shape.toString(), std::string("F32[batch,3,unk_x_2]"));
    QCOMPARE(g.symbols(), (std::vector<std::string>{"batch", "unk_x_2"}));
}

void TestOnnxCases::failedShapeInferenceFallsBack()
{
    REQUIRE_ONNX();
    auto loaded = loadGraphFile(testDataPath("bad/wrong_output_shape.onnx").toStdString());
    QVERIFY(loaded.ok());
    QCOMPARE(loaded->warnings.size(), std::size_t(1));
    const std::string& w = loaded->warnings[0].message;
    QVERIFY2(w.rfind("ONNX shape inference failed (", 0) == 0, w.c_str());
    QVERIFY2(w.find("using the shapes the file states") != std::string::npos, w.c_str());
    QCOMPARE(loaded->graph.find(loaded->graph.outputs[0])->shape.toString(), std::string("F32[1,3,8,9]"));
}

void TestOnnxCases::unknownOpsKeepAttributes()
{
    COSTSCOPE_REQUIRE_SHARED();
    REQUIRE_ONNX();
    const Graph g = loadCase("test_strnorm_model_monday_casesensintive_lower").graph;
    const Node& n = only(g, OpKind::Unknown);
    QCOMPARE(n.op.name, std::string("StringNormalizer"));
    QCOMPARE(n.op.attrs.stringOr("case_change_action", ""), std::string("LOWER"));
    QCOMPARE(n.op.attrs.intOr("is_case_sensitive", 0), std::int64_t(1));
    QVERIFY(n.op.unknownPayload.find("\"stopwords\":[\"monday\"]") != std::string::npos);
}

void TestOnnxCases::invalidUtf8IsReplaced()
{
    REQUIRE_ONNX();
    auto loaded = loadGraphFile(testDataPath("bad/invalid_utf8.onnx").toStdString());
    QVERIFY(loaded.ok());
    const Graph& g = loaded->graph;
    QCOMPARE(g.nodes.size(), std::size_t(3));
    QCOMPARE(*g.nodes[1].name, std::string("relu_\xEF\xBF\xBD\xEF\xBF\xBD"));
    // An op of a domain the model declares no opset for does not stop shape inference for the rest.
    QCOMPARE(g.nodes[1].shape.toString(), std::string("F32[1,3,8,8]"));
    QCOMPARE(g.nodes[2].op.name, std::string("FancyOp"));
    QCOMPARE(g.nodes[2].op.attrs.stringOr("mode", ""), std::string("\xEF\xBF\xBD("));
    QCOMPARE(loaded->warnings.size(), std::size_t(2));
    auto again = parseRlxJson(writeRlxJson(g));
    QVERIFY(again.ok());
    QCOMPARE(*again->nodes[1].name, *g.nodes[1].name);
}

QTEST_GUILESS_MAIN(TestOnnxCases)
#include "test_onnx_cases.moc"
