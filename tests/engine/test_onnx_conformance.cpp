// SPDX-License-Identifier: MIT
// Every ONNX conformance case in ../shared/data/onnx/node/ and every light CNN in ../shared/data/onnx/light/ runs
// on the CPU backend and must match its expected first output at the suite's tolerance (rtol 1e-3, atol 1e-7).
// Node cases read their inputs from test_data_set_0/input_*.pb; the light CNNs get arange(n)/n per graph input.
#include "cpu/cpu_backend.h"
#include "formats/graph_file.h"
#include "formats/onnx_import.h"
#include "synthetic.h"
#include "tensor_proto.h"
#include "test_paths.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace costscope;
using namespace costscope::test;

namespace {
constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-7;

// Cases Costscope cannot represent, with the reason (checked by name).
const std::map<QString, const char*>& expectedSkips()
{
    static const std::map<QString, const char*> skips = [] {
        std::map<QString, const char*> m;
        for (int i = 1; i <= 8; ++i)
            m[QString("test_sequence_model%1").arg(i)] = "ONNX sequence values have no tensor representation";
        for (const char* s : {"test_strnorm_model_monday_casesensintive_lower",
                              "test_strnorm_model_monday_casesensintive_nochangecase",
                              "test_strnorm_model_monday_casesensintive_upper", "test_strnorm_model_monday_empty_output",
                              "test_strnorm_model_monday_insensintive_upper_twodim",
                              "test_strnorm_model_nostopwords_nochangecase"})
            m[s] = "string tensors are not supported";
        m["test_gradient_of_add"] = "Gradient is a training-only operator (ai.onnx.preview.training)";
        m["test_gradient_of_add_and_mul"] = "Gradient is a training-only operator (ai.onnx.preview.training)";
        return m;
    }();
    return skips;
}

Result<Graph> importModel(const QString& path)
{
    auto bytes = readFileBytes(path.toStdString());
    if (!bytes)
        return bytes.error();
#ifdef COSTSCOPE_HAVE_ONNX
    return importOnnx(*bytes);
#else
    return Diagnostic::error("this build has no ONNX import");
#endif
}

// The graph's Input nodes in file order (the order of ONNX graph inputs and of input_*.pb files).
std::vector<NodeId> inputOrder(const Graph& g)
{
    std::vector<NodeId> ids;
    for (const Node& n : g.nodes)
        if (n.op.kind == OpKind::Input)
            ids.push_back(n.id);
    return ids;
}

// Symbols of the graph inputs take their sizes from the given input tensors.
Bindings bindFromInputs(const Graph& g, const std::vector<NodeId>& order, const std::vector<HostTensor>& inputs)
{
    Bindings b;
    for (std::size_t i = 0; i < order.size() && i < inputs.size(); ++i) {
        const Node* n = g.find(order[i]);
        for (std::size_t d = 0; n && d < n->shape.dims.size() && d < inputs[i].rank(); ++d)
            if (!n->shape.dims[d].isStatic())
                b[n->shape.dims[d].symbol] = inputs[i].dim(d);
    }
    return b;
}

QString compareOutputs(const HostTensor& got, const HostTensor& want)
{
    if (got.dims() != want.dims())
        return QString("shape %1, expected %2").arg(describe(got).c_str(), describe(want).c_str());
    for (std::uint64_t i = 0; i < want.elements(); ++i) {
        const double g = got.valueAsDouble(i), w = want.valueAsDouble(i);
        const double err = std::abs(g - w);
        if (!(err <= kAtol + kRtol * std::abs(w)) && !(std::isnan(g) && std::isnan(w)))
            return QString("element %1: got %2, expected %3").arg(i).arg(g, 0, 'g', 9).arg(w, 0, 'g', 9);
    }
    return {};
}
} // namespace

class TestOnnxConformance : public QObject {
    Q_OBJECT
private slots:
    void cases_data();
    void cases();
};

void TestOnnxConformance::cases_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("dataDir");   // node cases: test_data_set_0; empty for the light CNNs
    QTest::addColumn<QString>("expected"); // the expected first output
    const QString node = sharedPath("data/onnx/node");
    if (node.isEmpty())
        return;
    for (const QString& suite : QDir(node).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        for (const QString& c : QDir(node + '/' + suite).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QString dir = node + '/' + suite + '/' + c;
            QTest::newRow(qPrintable(suite + '/' + c))
                << dir + "/model.onnx" << dir + "/test_data_set_0" << dir + "/test_data_set_0/output_0.pb";
        }
    const QString light = sharedPath("data/onnx/light");
    for (const QString& f : QDir(light).entryList({"*.onnx"}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable("light/" + f)) << light + '/' + f << QString()
                                                << light + '/' + QString(f).replace(".onnx", "_output_0.pb");
}

void TestOnnxConformance::cases()
{
    COSTSCOPE_REQUIRE_SHARED();
    QFETCH(QString, model);
    QFETCH(QString, dataDir);
    QFETCH(QString, expected);
    const QString caseName = QFileInfo(QFileInfo(model).path()).fileName();
    if (auto it = expectedSkips().find(caseName); it != expectedSkips().end())
        QSKIP(it->second);
    if (!onnxImportAvailable())
        QSKIP("this build has no ONNX import (libonnx not found)");
    auto graph = importModel(model);
    QVERIFY2(graph, graph ? "" : graph.error().format(model.toStdString()).c_str());
    const std::vector<NodeId> order = inputOrder(*graph);

    std::vector<HostTensor> fileInputs;
    for (std::size_t i = 0; !dataDir.isEmpty(); ++i) {
        const QString f = dataDir + QString("/input_%1.pb").arg(i);
        if (!QFileInfo::exists(f))
            break;
        auto t = readTensorProtoFile(f.toStdString());
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        fileInputs.push_back(std::move(*t));
    }
    if (!dataDir.isEmpty())
        QCOMPARE(fileInputs.size(), order.size());

    CpuBackend backend;
    auto plan = backend.compile(*graph, bindFromInputs(*graph, order, fileInputs), 0);
    QVERIFY2(plan, plan ? "" : plan.error().format(model.toStdString()).c_str());
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : (*plan)->inputs()) {
        const auto pos = static_cast<std::size_t>(std::find(order.begin(), order.end(), in.node) - order.begin());
        inputs.push_back(dataDir.isEmpty() ? arangeInput(in.dims, in.dtype) : fileInputs.at(pos));
    }
    QVERIFY((*plan)->uploadParameters());
    auto set = (*plan)->setInputs(inputs);
    QVERIFY2(set, set ? "" : set.error().format(model.toStdString()).c_str());
    auto ran = (*plan)->run();
    QVERIFY2(ran, ran ? "" : ran.error().format(model.toStdString()).c_str());
    auto outs = (*plan)->readOutputs();
    QVERIFY(outs && !outs->empty());
    auto want = readTensorProtoFile(expected.toStdString());
    QVERIFY2(want, want ? "" : want.error().message.c_str());
    const QString mismatch = compareOutputs(outs->front(), *want);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
}

QTEST_GUILESS_MAIN(TestOnnxConformance)
#include "test_onnx_conformance.moc"
