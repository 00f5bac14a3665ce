// SPDX-License-Identifier: MIT
// ONNX opsets 18 to 21 where libonnx 1.12 knows only opset 17: Costscope's own shape inference for the ops whose
// shapes libonnx cannot tell (Resize with axes, CenterCropPad, Col2Im, GroupNormalization, Pad and Reduce with axes
// inputs), the import of Pad's axes, Split's num_outputs and LayerNormalization's Mean output, and each of them run
// by costscope-cli run against values computed by hand. Models are written here with libonnx's protobuf classes.
#include "formats/graph_file.h"
#include "formats/onnx_import.h"
#include "graph_lookup.h"
#include "onnx_writer.h"
#include "test_paths.h"

#include <QTemporaryDir>
#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
using Ints = std::vector<std::int64_t>;
} // namespace

class TestOnnxOpset18 : public QObject {
    Q_OBJECT
private slots:
    void init();
    void ownShapeInference_data();
    void ownShapeInference();
    void resizeRuns_data();
    void resizeRuns();
    void padAxesAreWrittenOutAndRun();
    void splitNumOutputsRunsPerOutput();
    void layerNormalizationMeanOutputRuns();
    void reduceAxesInputRuns();
    void opsetsPast21Warn();

private:
    // costscope-cli run of the model with the given inputs against the expected first output.
    void checkRun(const QStringList& inputs, const std::vector<float>& expected, const Ints& dims);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_model;
};

void TestOnnxOpset18::init()
{
    if (!onnxImportAvailable())
        QSKIP("this build has no ONNX import (libonnx not found)");
    m_dir = std::make_unique<QTemporaryDir>();
    m_model = m_dir->filePath("m.onnx");
}

void TestOnnxOpset18::checkRun(const QStringList& inputs, const std::vector<float>& expected, const Ints& dims)
{
    writeTensorFile(m_dir->filePath("expected.pb"), expected, dims);
    QStringList args = {"run",
                        m_model,
                        "--runs",
                        "1",
                        "--warmup",
                        "0",
                        "--no-host-probe",
                        "--reference",
                        m_dir->filePath("expected.pb"),
                        "--atol",
                        "1e-5"};
    for (const QString& in : inputs)
        args << "--input" << in;
    QByteArray out, err;
    const int code = runCli(args, &out, &err);
    QVERIFY2(code == 0, (out + err).constData());
}

void TestOnnxOpset18::ownShapeInference_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("expected");
    QTest::newRow("Resize 19, sizes of axes 2 and 3") << "Resize"
                                                      << "F32[1,3,8,12]";
    QTest::newRow("Resize 19, not_larger") << "ResizeKeepAspect"
                                           << "F32[1,3,6,9]";
    QTest::newRow("CenterCropPad 18") << "CenterCropPad"
                                      << "F32[1,3,5,5]";
    QTest::newRow("Col2Im 18") << "Col2Im"
                               << "F32[1,1,5,5]";
    QTest::newRow("GroupNormalization 21") << "GroupNormalization"
                                           << "F32[1,3,4,6]";
    QTest::newRow("Pad 18, axes") << "Pad"
                                  << "F32[1,3,4,9]";
    QTest::newRow("ReduceMean 18, axes input") << "ReduceMean"
                                               << "F32[1,3,1,1]";
}

void TestOnnxOpset18::ownShapeInference()
{
    QFETCH(QString, op);
    QFETCH(QString, expected);
    OnnxModel m(21);
    m.input("x", op == "Col2Im" ? Ints{1, 4, 16} : Ints{1, 3, 4, 6});
    if (op == "Resize" || op == "ResizeKeepAspect") {
        m.ints("sizes", {8, 12});
        auto& n = m.node("Resize", {"x", "", "", "sizes"}, {"y"});
        OnnxModel::attr(n, "axes", Ints{2, 3});
        if (op == "ResizeKeepAspect") {
            m.graph().mutable_initializer(0)->set_int64_data(0, 6);
            OnnxModel::attr(n, "keep_aspect_ratio_policy", std::string("not_larger"));
        }
    } else if (op == "CenterCropPad") {
        m.ints("shape", {5, 5});
        OnnxModel::attr(m.node("CenterCropPad", {"x", "shape"}, {"y"}), "axes", Ints{-2, -1});
    } else if (op == "Col2Im") {
        m.ints("image", {5, 5});
        m.ints("block", {2, 2});
        m.node("Col2Im", {"x", "image", "block"}, {"y"});
    } else if (op == "GroupNormalization") {
        m.floats("scale", {1, 1, 1});
        m.floats("bias", {0, 0, 0});
        OnnxModel::attr(m.node("GroupNormalization", {"x", "scale", "bias"}, {"y"}), "num_groups", std::int64_t{3});
    } else if (op == "Pad") {
        m.ints("pads", {1, 2});
        m.ints("axes", {-1});
        m.node("Pad", {"x", "pads", "", "axes"}, {"y"});
    } else {
        m.ints("axes", {2, 3});
        m.node("ReduceMean", {"x", "axes"}, {"y"});
    }
    m.outputWithoutShape("y");
    m.save(m_model);
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    QVERIFY(!mentions(loaded->warnings, "no shape is known"));
    const Node* y = nodeNamed(loaded->graph, "y");
    QVERIFY(y);
    QCOMPARE(QString::fromStdString(y->shape.toString()), expected);
}

void TestOnnxOpset18::resizeRuns_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("transform");
    QTest::addColumn<std::vector<float>>("expected");
    // x = [[1, 2], [3, 4]] to 4 x 4.
    QTest::newRow("nearest, half_pixel") << "nearest"
                                         << "half_pixel"
                                         << std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
    const float t = 1.0f / 3, u = 2.0f / 3;
    QTest::newRow("linear, align_corners")
        << "linear"
        << "align_corners" << std::vector<float>{1,         1 + t,         1 + u,         2,
                                                 1 + 2 * t, 1 + 3 * t,     1 + 4 * t,     2 + 2 * t,
                                                 1 + 2 * u, 1 + 2 * u + t, 1 + 2 * u + u, 2 + 2 * u,
                                                 3,         3 + t,         3 + u,         4};
    QTest::newRow("linear, half_pixel") << "linear"
                                        << "half_pixel"
                                        << std::vector<float>{1,    1.25f, 1.75f, 2,    1.5f, 1.75f, 2.25f, 2.5f,
                                                              2.5f, 2.75f, 3.25f, 3.5f, 3,    3.25f, 3.75f, 4};
}

void TestOnnxOpset18::resizeRuns()
{
    QFETCH(QString, mode);
    QFETCH(QString, transform);
    QFETCH(std::vector<float>, expected);
    OnnxModel m(19);
    m.input("x", {1, 1, 2, 2});
    m.ints("sizes", {4, 4});
    auto& n = m.node("Resize", {"x", "", "", "sizes"}, {"y"});
    OnnxModel::attr(n, "axes", Ints{2, 3});
    OnnxModel::attr(n, "mode", mode.toStdString());
    OnnxModel::attr(n, "coordinate_transformation_mode", transform.toStdString());
    m.outputWithoutShape("y");
    m.save(m_model);
    writeTensorFile(m_dir->filePath("x.pb"), {1, 2, 3, 4}, {1, 1, 2, 2});
    checkRun({m_dir->filePath("x.pb")}, expected, {1, 1, 4, 4});
}

void TestOnnxOpset18::padAxesAreWrittenOutAndRun()
{
    // Constant axes: the Pad the backends know, with pads for every dim.
    OnnxModel m(18);
    m.input("x", {2, 3});
    m.ints("pads", {1, 2});
    m.ints("axes", {1});
    m.node("Pad", {"x", "pads", "", "axes"}, {"y"});
    m.outputWithoutShape("y");
    m.save(m_model);
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY(loaded);
    const Node* y = nodeNamed(loaded->graph, "y");
    QVERIFY(y && y->op.kind == OpKind::Pad);
    QCOMPARE(y->op.attrs.getInts("pads").value_or(Ints{}), (Ints{0, 1, 0, 2}));
    QVERIFY(!y->op.attrs.has("axes"));
    writeTensorFile(m_dir->filePath("x.pb"), {1, 2, 3, 4, 5, 6}, {2, 3});
    checkRun({m_dir->filePath("x.pb")}, {0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0, 0}, {2, 6});

    // Axes computed at run time: the kernel applies them.
    OnnxModel c(18);
    c.input("x", {2, 3});
    c.intInput("axes", 1);
    c.ints("pads", {1, 1});
    c.node("Pad", {"x", "pads", "", "axes"}, {"y"});
    c.output("y", {2, 5});
    c.save(m_model);
    writeIntTensorFile(m_dir->filePath("axes.pb"), {-1});
    checkRun({m_dir->filePath("x.pb"), m_dir->filePath("axes.pb")}, {0, 1, 2, 3, 0, 0, 4, 5, 6, 0}, {2, 5});
}

void TestOnnxOpset18::splitNumOutputsRunsPerOutput()
{
    // The split dim is known only when the input comes: one node per output, the second one the graph's output.
    OnnxModel m(18);
    m.input("x", {-1});
    OnnxModel::attr(m.node("Split", {"x"}, {"a", "b", "c"}), "num_outputs", std::int64_t{3});
    m.outputWithoutShape("b");
    m.save(m_model);
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    const Node* b = nodeNamed(loaded->graph, "b");
    QVERIFY(b);
    QCOMPARE(b->op.attrs.getInt("onnx_output").value_or(-1), std::int64_t{1});
    writeTensorFile(m_dir->filePath("x.pb"), {0, 1, 2, 3, 4, 5, 6}, {7});
    checkRun({m_dir->filePath("x.pb")}, {3, 4, 5}, {3});
}

void TestOnnxOpset18::layerNormalizationMeanOutputRuns()
{
    OnnxModel m(17);
    m.input("x", {2, 3});
    m.floats("scale", {1, 1, 1});
    m.floats("bias", {0, 0, 0});
    m.node("LayerNormalization", {"x", "scale", "bias"}, {"y", "mean"});
    m.output("mean", {2, 1});
    m.save(m_model);
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    writeTensorFile(m_dir->filePath("x.pb"), {1, 2, 3, 4, 5, 9}, {2, 3});
    checkRun({m_dir->filePath("x.pb")}, {2, 6}, {2, 1});
}

void TestOnnxOpset18::reduceAxesInputRuns()
{
    OnnxModel m(18);
    m.input("x", {2, 3});
    m.ints("axes", {1});
    OnnxModel::attr(m.node("ReduceSum", {"x", "axes"}, {"y"}), "keepdims", std::int64_t{0});
    m.outputWithoutShape("y");
    m.save(m_model);
    writeTensorFile(m_dir->filePath("x.pb"), {1, 2, 3, 4, 5, 9}, {2, 3});
    checkRun({m_dir->filePath("x.pb")}, {6, 18}, {2});
}

void TestOnnxOpset18::opsetsPast21Warn()
{
    for (int opset : {21, 23}) {
        OnnxModel m(opset);
        m.input("x", {2, 3});
        m.node("Relu", {"x"}, {"y"});
        m.output("y", {2, 3});
        m.save(m_model);
        auto loaded = loadGraphFile(m_model.toStdString());
        QVERIFY(loaded);
        QCOMPARE(mentions(loaded->warnings,
                          "opset " + std::to_string(opset) + ", newer than the newest Costscope reads (21)"),
                 opset > 21);
    }
}

QTEST_GUILESS_MAIN(TestOnnxOpset18)
#include "test_onnx_opset18.moc"
