// SPDX-License-Identifier: MIT
// Real Hugging Face exports (issue 19), as a user gets them: transformers' GPT-2, BERT and Llama at 2 layers and
// width 64 with random weights, exported by torch.onnx's dynamo exporter (opset 20) with external data, inputs and
// PyTorch's outputs beside them (scripts/export_hf_models.py --size tiny; the full-size models are checked on the GPU
// machine, docs/precision.md). costscope-cli loads, analyses and runs each on the CPU backend against PyTorch.
#include "test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace costscope::test;

class TestCliHfExports : public QObject {
    Q_OBJECT
private slots:
    void exportsLoadAnalyseAndMatchPyTorch_data();
    void exportsLoadAnalyseAndMatchPyTorch();
    void aWrongReferenceFailsTheCheck();
    void missingExternalDataIsNamed();
};

namespace {
QStringList inputsOf(const QString& name)
{
    const QString dir = testDataPath("hf");
    QStringList args;
    for (const QString& f : QDir(dir).entryList({name + ".input*.pb"}, QDir::Files, QDir::Name))
        args << "--input" << dir + "/" + f;
    return args;
}

bool onnxSupported()
{
    QByteArray out, err;
    return runCli({"info", testDataPath("hf/bert_tiny_fp32.onnx")}, &out, &err) == 0 || !err.contains("ONNX support");
}
} // namespace

void TestCliHfExports::exportsLoadAnalyseAndMatchPyTorch_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("rtol");
    QTest::addColumn<QString>("atol");
    // fp32: PyTorch's own tolerance for fp32 CPU kernels. bf16: the CPU backend rounds each node's output to bf16
    // as PyTorch does, in another order; 2e-2 is five bf16 units in the last place (2^-8 each) of a unit value.
    QTest::newRow("gpt2 fp32") << "gpt2_tiny_fp32"
                               << "1e-3"
                               << "1e-4";
    QTest::newRow("bert fp32") << "bert_tiny_fp32"
                               << "1e-3"
                               << "1e-4";
    QTest::newRow("llama fp32") << "llama_tiny_fp32"
                                << "1e-3"
                                << "1e-4";
    QTest::newRow("bert bf16") << "bert_tiny_bf16"
                               << "2e-2"
                               << "2e-2";
}

void TestCliHfExports::exportsLoadAnalyseAndMatchPyTorch()
{
    QFETCH(QString, name);
    QFETCH(QString, rtol);
    QFETCH(QString, atol);
    if (!onnxSupported())
        QSKIP("this build has no ONNX import");
    const QString dir = testDataPath("hf");
    const QString model = dir + "/" + name + ".onnx";
    QByteArray out, err;
    QCOMPARE(runCli({"info", model, "--json"}, &out, &err), 0);
    const QJsonObject info = QJsonDocument::fromJson(out).object();
    QVERIFY2(info.value("nodes").toInt() > 100, out.constData());
    QCOMPARE(runCli({"analyze", model, "--json"}, &out, &err), 0);
    QVERIFY2(QJsonDocument::fromJson(out).isObject(), err.constData());
    QStringList run = {"run",      model, "--backend",       "cpu",    "--runs",      "1",
                       "--warmup", "0",   "--no-host-probe", "--json", "--reference", dir + "/" + name + ".ref.pb",
                       "--rtol",   rtol,  "--atol",          atol};
    run << inputsOf(name);
    const int code = runCli(run, &out, &err);
    const QJsonObject check = QJsonDocument::fromJson(out).object().value("check").toObject();
    QVERIFY2(code == 0 && check.value("pass").toBool(), (out + err).constData());
    QVERIFY(check.value("max_abs_error").toDouble() < atol.toDouble() * 4);
}

// The check compares for real: BERT's hidden states [1,128,64] are not GPT-2's logits [1,128,1000].
void TestCliHfExports::aWrongReferenceFailsTheCheck()
{
    if (!onnxSupported())
        QSKIP("this build has no ONNX import");
    const QString dir = testDataPath("hf");
    QByteArray out, err;
    QStringList run = {
        "run",         dir + "/llama_tiny_fp32.onnx", "--runs", "1", "--warmup", "0", "--no-host-probe", "--json",
        "--reference", dir + "/gpt2_tiny_fp32.ref.pb"};
    run << inputsOf("llama_tiny_fp32");
    QCOMPARE(runCli(run, &out, &err), 4);
    QVERIFY2(!QJsonDocument::fromJson(out).object().value("check").toObject().value("pass").toBool(), out.constData());
}

// Without its .onnx.data file the model still loads and analyses (weights unknown), and a run names the file.
void TestCliHfExports::missingExternalDataIsNamed()
{
    if (!onnxSupported())
        QSKIP("this build has no ONNX import");
    QTemporaryDir tmp;
    const QString model = tmp.filePath("gpt2_tiny_fp32.onnx");
    QVERIFY(QFile::copy(testDataPath("hf/gpt2_tiny_fp32.onnx"), model));
    QByteArray out, err;
    QCOMPARE(runCli({"analyze", model}, &out, &err), 0);
    QVERIFY2(err.contains("gpt2_tiny_fp32.onnx.data"), err.constData());
    QStringList run = {"run", model, "--runs", "1", "--warmup", "0", "--no-host-probe"};
    run << inputsOf("gpt2_tiny_fp32");
    QCOMPARE(runCli(run, &out, &err), 3);
    QVERIFY2(err.contains("gpt2_tiny_fp32.onnx.data"), err.constData());
}

QTEST_GUILESS_MAIN(TestCliHfExports)
#include "test_cli_hf_exports.moc"
