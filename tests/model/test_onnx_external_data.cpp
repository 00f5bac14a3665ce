// SPDX-License-Identifier: MIT
// ONNX external data: initializers kept in files beside the model are read (offset, length, several tensors in one
// file); a location leaving the model's folder is refused naming the tensor and the path; a missing file loads with
// a warning, analyses, and `costscope-cli run` exits 3 naming the file. Models are written here with libonnx's
// protobuf classes.
#include "formats/graph_file.h"
#include "formats/missing_tensor_data.h"
#include "formats/onnx_import.h"
#include "graph_lookup.h"
#include "onnx_writer.h"
#include "test_paths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <filesystem>

using namespace costscope;
using namespace costscope::test;

namespace {
constexpr int kRows = 4, kCols = 8;

std::vector<float> weights(float first)
{
    std::vector<float> w(kRows * kCols);
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = first + 0.5f * static_cast<float>(i);
    return w;
}

onnx::TensorProto externalTensor(const std::string& name, const std::string& location, std::size_t offset,
                                 std::optional<std::size_t> length = kRows * kCols * sizeof(float))
{
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(kRows);
    t.add_dims(kCols);
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    auto add = [&](const char* key, const std::string& value) {
        auto* e = t.add_external_data();
        e->set_key(key);
        e->set_value(value);
    };
    add("location", location);
    add("offset", std::to_string(offset));
    if (length)
        add("length", std::to_string(*length));
    return t;
}

// y = x·a + x·b with x [1, 4] and the two [4, 8] weights a and b.
void writeModel(const QString& path, const onnx::TensorProto& a, const onnx::TensorProto& b)
{
    OnnxModel m(17);
    m.node("MatMul", {"x", a.name()}, {"xa"});
    m.node("MatMul", {"x", b.name()}, {"xb"});
    m.node("Add", {"xa", "xb"}, {"y"});
    *m.graph().add_initializer() = a;
    *m.graph().add_initializer() = b;
    m.input("x", {1, kRows});
    m.output("y", {1, kCols});
    m.save(path);
}

} // namespace

class TestOnnxExternalData : public QObject {
    Q_OBJECT
private slots:
    void init();
    void valuesAreReadFromOneFile();
    void alignedValuesAreMappedNotCopied();
    void runUsesTheValues();
    void locationsLeavingTheFolderAreRefused_data();
    void locationsLeavingTheFolderAreRefused();
    void rangesPastTheFileAreRefused();
    void missingFileLoadsAndRunExits3();
    void bytesWithoutFolderAreNotRead();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_model;
};

void TestOnnxExternalData::init()
{
    if (!onnxImportAvailable())
        QSKIP("this build has no ONNX import (libonnx not found)");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(QDir(m_dir->path()).mkpath("model"));
    m_model = m_dir->filePath("model/m.onnx");
}

void TestOnnxExternalData::valuesAreReadFromOneFile()
{
    const auto a = weights(1), b = weights(-7);
    const std::size_t size = a.size() * sizeof(float);
    // Both tensors in one file, after a header: each is read from its own offset.
    writeBytes(m_dir->filePath("model/weights.bin"), std::string(16, '\xff') + bytesOf(a) + bytesOf(b));
    writeModel(m_model, externalTensor("a", "weights.bin", 16), externalTensor("b", "weights.bin", 16 + size, {}));
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    QVERIFY(!mentions(loaded->warnings, "weights.bin"));
    for (const auto& [name, values] : {std::pair{"a", &a}, std::pair{"b", &b}}) {
        const Node* n = nodeNamed(loaded->graph, name);
        QVERIFY(n && n->data);
        QCOMPARE(n->data->size(), size);
        QVERIFY(std::memcmp(n->data->data(), values->data(), size) == 0);
    }
    QVERIFY(missingTensorData(loaded->graph).empty());
}

// A 1B model's gigabytes of weights must not be copied on load (issue 19: < 2 s): tensors at aligned offsets view the
// mapped file, which stays mapped after the import returns for as long as the graph holds them; one at an offset
// too odd for its floats is copied into aligned memory.
void TestOnnxExternalData::alignedValuesAreMappedNotCopied()
{
    const auto a = weights(1), b = weights(-7);
    const std::size_t size = a.size() * sizeof(float);
    writeBytes(m_dir->filePath("model/weights.bin"), bytesOf(a) + std::string(4096 - size + 4, '\0') + bytesOf(b));
    writeModel(m_model, externalTensor("a", "weights.bin", 0), externalTensor("b", "weights.bin", 4096 + 4));
    std::optional<Graph> graph;
    {
        auto loaded = loadGraphFile(m_model.toStdString());
        QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
        graph = std::move(loaded->graph);
    }
    const Node* mapped = nodeNamed(*graph, "a");
    const Node* copied = nodeNamed(*graph, "b");
    QVERIFY(mapped && mapped->data && copied && copied->data);
    QVERIFY(mapped->data->isView());
    QVERIFY(!copied->data->isView());
    QVERIFY(reinterpret_cast<std::uintptr_t>(copied->data->data()) % alignof(float) == 0);
    QVERIFY(std::memcmp(mapped->data->data(), a.data(), size) == 0);
    QVERIFY(std::memcmp(copied->data->data(), b.data(), size) == 0);
    const Graph copy = *graph; // copies share the mapping
    graph.reset();
    QVERIFY(std::memcmp(nodeNamed(copy, "a")->data->data(), a.data(), size) == 0);
}

void TestOnnxExternalData::runUsesTheValues()
{
    const auto a = weights(1), b = weights(-7);
    QVERIFY(QDir(m_dir->path()).mkpath("model/data"));
    writeBytes(m_dir->filePath("model/data/a.bin"), bytesOf(a));
    writeBytes(m_dir->filePath("model/data/b.bin"), bytesOf(b));
    writeModel(m_model, externalTensor("a", "data/a.bin", 0), externalTensor("b", "data/b.bin", 0));
    const std::vector<float> x = {1, 2, -1, 0.5f};
    std::vector<float> y(kCols, 0.0f);
    for (int j = 0; j < kCols; ++j)
        for (int i = 0; i < kRows; ++i)
            y[j] += x[i] * (a[i * kCols + j] + b[i * kCols + j]);
    writeTensorFile(m_dir->filePath("x.pb"), x, {1, kRows});
    writeTensorFile(m_dir->filePath("y.pb"), y, {1, kCols});
    QByteArray out, err;
    const int code = runCli({"run", m_model, "--runs", "1", "--warmup", "0", "--no-host-probe", "--input",
                             m_dir->filePath("x.pb"), "--reference", m_dir->filePath("y.pb"), "--atol", "1e-4"},
                            &out, &err);
    QVERIFY2(code == 0, (out + err).constData());
}

void TestOnnxExternalData::locationsLeavingTheFolderAreRefused_data()
{
    QTest::addColumn<QString>("location");
    QTest::newRow("absolute") << "ABS";
    QTest::newRow("parent") << "../outside.bin";
    QTest::newRow("parent inside a path") << "sub/../../outside.bin";
    QTest::newRow("symlink to a file outside") << "link.bin";
    QTest::newRow("file in a symlinked folder outside") << "linked/outside.bin";
}

void TestOnnxExternalData::locationsLeavingTheFolderAreRefused()
{
    QFETCH(QString, location);
    const QString outside = m_dir->filePath("outside.bin");
    writeBytes(outside, bytesOf(weights(0)));
    writeBytes(m_dir->filePath("model/inside.bin"), bytesOf(weights(0)));
    namespace fs = std::filesystem;
    fs::create_directory_symlink(m_dir->path().toStdString(), m_dir->filePath("model/linked").toStdString());
    fs::create_symlink(outside.toStdString(), m_dir->filePath("model/link.bin").toStdString());
    QVERIFY(QDir(m_dir->path()).mkpath("model/sub"));
    if (location == "ABS")
        location = outside;
    writeModel(m_model, externalTensor("inner", "inside.bin", 0),
               externalTensor("escaping", location.toStdString(), 0));
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY(!loaded);
    const std::string message = loaded.error().message;
    QVERIFY2(message.find("'escaping'") != std::string::npos, message.c_str());
    QVERIFY2(message.find(location.toStdString()) != std::string::npos, message.c_str());
    QVERIFY2(message.find("folder") != std::string::npos, message.c_str());
    QByteArray err;
    QCOMPARE(runCli({"info", m_model}, nullptr, &err), 3);
    QVERIFY2(err.contains("escaping") && err.contains(location.toUtf8()), err.constData());
}

void TestOnnxExternalData::rangesPastTheFileAreRefused()
{
    writeBytes(m_dir->filePath("model/short.bin"), bytesOf(weights(0)));
    writeModel(m_model, externalTensor("a", "short.bin", 0), externalTensor("b", "short.bin", 8));
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY(!loaded);
    QVERIFY2(loaded.error().message.find("'b'") != std::string::npos, loaded.error().message.c_str());
    QVERIFY2(loaded.error().message.find("past the end of 'short.bin'") != std::string::npos,
             loaded.error().message.c_str());
    QByteArray err;
    QCOMPARE(runCli({"run", m_model, "--runs", "1", "--warmup", "0", "--no-host-probe"}, nullptr, &err), 3);
    QVERIFY2(err.contains("past the end of 'short.bin'"), err.constData());
    // A length that does not match the tensor's shape is an error too.
    writeModel(m_model, externalTensor("a", "short.bin", 0), externalTensor("b", "short.bin", 0, 12));
    loaded = loadGraphFile(m_model.toStdString());
    QVERIFY(!loaded);
    QVERIFY2(loaded.error().message.find("'b'") != std::string::npos, loaded.error().message.c_str());
}

void TestOnnxExternalData::missingFileLoadsAndRunExits3()
{
    writeBytes(m_dir->filePath("model/a.bin"), bytesOf(weights(0)));
    writeModel(m_model, externalTensor("a", "a.bin", 0), externalTensor("b", "gone.bin", 0));
    auto loaded = loadGraphFile(m_model.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    QVERIFY(mentions(loaded->warnings, "'gone.bin'"));
    const Node* b = nodeNamed(loaded->graph, "b");
    QVERIFY(b && !b->data);
    const auto missing = missingTensorData(loaded->graph);
    QCOMPARE(missing.size(), std::size_t{1});
    QCOMPARE(missing.front().file, std::string("gone.bin"));
    QCOMPARE(missing.front().tensor, std::string("b"));

    QByteArray out, err;
    QCOMPARE(runCli({"analyze", m_model}, &out, &err), 0);
    QVERIFY2(err.contains("gone.bin"), err.constData());
    QCOMPARE(runCli({"run", m_model, "--runs", "1", "--warmup", "0", "--no-host-probe"}, &out, &err), 3);
    QVERIFY2(err.contains("'gone.bin'") && err.contains("missing") && err.contains("'b'"), err.constData());
    // Saved as a Costscope document, the graph still knows it cannot run.
    const QString saved = m_dir->filePath("m.costscope");
    QVERIFY(saveGraphFile(loaded->graph, saved.toStdString()));
    QCOMPARE(runCli({"run", saved, "--runs", "1", "--warmup", "0", "--no-host-probe"}, &out, &err), 3);
    QVERIFY2(err.contains("'gone.bin'"), err.constData());
}

void TestOnnxExternalData::bytesWithoutFolderAreNotRead()
{
    writeBytes(m_dir->filePath("model/a.bin"), bytesOf(weights(0)));
    writeModel(m_model, externalTensor("a", "a.bin", 0), externalTensor("b", "a.bin", 0));
    QFile f(m_model);
    QVERIFY(f.open(QIODevice::ReadOnly));
    Diagnostics warnings;
    auto g = importOnnx(f.readAll().toStdString(), &warnings);
    QVERIFY(g);
    QVERIFY(mentions(warnings, "without its folder"));
    QCOMPARE(missingTensorData(*g).size(), std::size_t{2});
}

QTEST_GUILESS_MAIN(TestOnnxExternalData)
#include "test_onnx_external_data.moc"
