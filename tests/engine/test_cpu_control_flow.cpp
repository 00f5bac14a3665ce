// SPDX-License-Identifier: MIT
// ONNX If, Loop and Scan: imported with their subgraphs (values read from the enclosing graph become extra inputs),
// run on the CPU backend and costed as their bodies times the number of runs; a Loop whose trip count is not a
// constant is left uncosted with a note; broken control flow is refused with a message (exit 3 from the CLI).
// Models are written with libonnx's protobuf classes (control_flow_models.h).
#include "analysis/op_cost.h"
#include "control_flow_models.h"
#include "cpu/cpu_backend.h"
#include "formats/graph_file.h"
#include "test_paths.h"

#include <QTemporaryDir>
#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
Result<std::vector<HostTensor>> runAll(const Graph& g, const std::vector<HostTensor>& inputs)
{
    CpuBackend backend;
    return runOn(backend, g, inputs);
}
} // namespace

class TestCpuControlFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void ifRunsTheBranchItsConditionPicks();
    void loopCarriesAndStacks();
    void loopIsCostedAsItsBodyTimesTheTripCount();
    void loopWithoutConstantTripCountIsNotCosted();
    void scanSlicesItsInputs();
    void opset8ScanRunsPerBatchEntry();
    void brokenControlFlowIsRefused();
    void subgraphsSurviveSaving();
};

void TestCpuControlFlow::initTestCase()
{
    if (!onnxImportAvailable())
        QSKIP("this build has no ONNX import (libonnx not found)");
}

void TestCpuControlFlow::ifRunsTheBranchItsConditionPicks()
{
    auto g = import(ifModel());
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    const auto x = f32({3}, {1, 2, 3});
    auto doubled = runAll(*g, {boolean(true), x});
    QVERIFY2(doubled, doubled ? "" : doubled.error().message.c_str());
    QCOMPARE(floats(doubled->front()), (std::vector<float>{2, 4, 6}));
    auto squared = runAll(*g, {boolean(false), x});
    QVERIFY2(squared, squared ? "" : squared.error().message.c_str());
    QCOMPARE(floats(squared->front()), (std::vector<float>{1, 4, 9}));
}

void TestCpuControlFlow::loopCarriesAndStacks()
{
    auto g = import(loopModel(true));
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    auto out = runAll(*g, {f32({2}, {1, 10}), f32({2}, {0, 5})});
    QVERIFY2(out, out ? "" : out.error().message.c_str());
    QCOMPARE(out->size(), std::size_t{2});
    QCOMPARE(floats((*out)[0]), (std::vector<float>{3, 35}));
    QCOMPARE((*out)[1].dims(), (std::vector<std::int64_t>{3, 2}));
    QCOMPARE(floats((*out)[1]), (std::vector<float>{1, 15, 2, 25, 3, 35}));
}

void TestCpuControlFlow::loopIsCostedAsItsBodyTimesTheTripCount()
{
    auto g = import(loopModel(true));
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    const Node* loop = nullptr;
    for (const Node& n : g->nodes)
        if (n.op.name == "Loop" && n.op.attrs.intOr("onnx_output", 0) == 0)
            loop = &n;
    QVERIFY(loop);
    QCOMPARE(loop->subgraphs.size(), std::size_t{1});
    InputShapes shapes;
    for (NodeId in : loop->inputs)
        shapes.push_back(&g->find(in)->shape);
    const OpWork w = opWork(*loop, shapes, {});
    QVERIFY2(!w.skipped, w.note.c_str());
    QCOMPARE(w.flops, 3.0 * 2.0); // an Add of two elements, three times
    QVERIFY2(w.note.find("trip count 3") != std::string::npos, w.note.c_str());
    QVERIFY(w.fused && !w.fused->members.empty());
    QCOMPARE(w.fused->members.front().repeat, 3.0);
}

void TestCpuControlFlow::loopWithoutConstantTripCountIsNotCosted()
{
    auto g = import(loopModel(false));
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    for (const Node& n : g->nodes) {
        if (n.op.name != "Loop" || n.op.attrs.intOr("onnx_output", 0) != 0)
            continue;
        InputShapes shapes;
        for (NodeId in : n.inputs)
            shapes.push_back(&g->find(in)->shape);
        const OpWork w = opWork(n, shapes, {});
        QVERIFY(w.skipped);
        QVERIFY2(w.note.find("unknown trip count") != std::string::npos, w.note.c_str());
    }
    // It still runs: the trip count is an input.
    auto out = runAll(*g, {i64(2), f32({2}, {1, 1}), f32({2}, {0, 0})});
    QVERIFY2(out, out ? "" : out.error().message.c_str());
    QCOMPARE(floats((*out)[0]), (std::vector<float>{2, 2}));
}

void TestCpuControlFlow::scanSlicesItsInputs()
{
    auto g = import(scanModel());
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    auto out = runAll(*g, {f32({2}, {0, 100}), f32({2, 3}, {1, 2, 3, 4, 5, 6})});
    QVERIFY2(out, out ? "" : out.error().message.c_str());
    QCOMPARE(floats((*out)[0]), (std::vector<float>{6, 115}));
    QCOMPARE(floats((*out)[1]), (std::vector<float>{3, 106, 5, 111, 6, 115}));
}

void TestCpuControlFlow::opset8ScanRunsPerBatchEntry()
{
    // Opset 8: sum, partials = Scan(sequence_lens, init [2, 2], xs [2, 3, 2]) backwards, sequences of 3 and 2 steps;
    // the shorter one's partial sums are zero-padded to 3 (as ONNX Runtime's Scan-8 does).
    OnnxModel m(8);
    Body body = runningSumBody();
    m.intInput("lens", 2);
    m.input("init", {2, 2});
    m.input("xs", {2, 3, 2});
    auto& scan = m.node("Scan", {"lens", "init", "xs"}, {"sum", "partials"});
    OnnxModel::attr(scan, "num_scan_inputs", std::int64_t{1});
    OnnxModel::attr(scan, "directions", std::vector<std::int64_t>{1});
    graphAttr(scan, "body", body.g);
    m.output("sum", {2, 2});
    m.output("partials", {2, 3, 2});
    auto g = import(m);
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    std::vector<std::int64_t> lens{3, 2};
    const auto lengths = HostTensor::fromBytes({2}, DType::I64, lens.data(), lens.size() * sizeof(std::int64_t));
    auto out =
        runAll(*g, {lengths, f32({2, 2}, {0, 0, 100, 100}), f32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})});
    QVERIFY2(out, out ? "" : out.error().message.c_str());
    QCOMPARE(floats((*out)[0]), (std::vector<float>{9, 12, 116, 118}));
    QCOMPARE((*out)[1].dims(), (std::vector<std::int64_t>{2, 3, 2}));
    QCOMPARE(floats((*out)[1]), (std::vector<float>{5, 6, 8, 10, 9, 12, 109, 110, 116, 118, 0, 0}));
    // Costed as its body once per batch entry and step.
    for (const Node& n : g->nodes)
        if (n.op.name == "Scan" && n.op.attrs.intOr("onnx_output", 0) == 0) {
            InputShapes shapes;
            for (NodeId in : n.inputs)
                shapes.push_back(&g->find(in)->shape);
            const OpWork w = opWork(n, shapes, {});
            QVERIFY2(!w.skipped, w.note.c_str());
            QCOMPARE(w.flops, 2.0 * 3.0 * 2.0); // an Add of two elements, for 2 entries of 3 steps
        }
    // A sequence length beyond the sequence axis is refused with the entry it is for.
    lens = {3, 4};
    const auto tooLong = HostTensor::fromBytes({2}, DType::I64, lens.data(), lens.size() * sizeof(std::int64_t));
    auto bad = runAll(*g, {tooLong, f32({2, 2}, {0, 0, 0, 0}), f32({2, 3, 2}, std::vector<float>(12, 1))});
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.find("sequence_lens[1] is 4") != std::string::npos, bad.error().message.c_str());
}

void TestCpuControlFlow::brokenControlFlowIsRefused()
{
    // A body reading a value nothing produces: the import names it.
    OnnxModel reads(17);
    Body body("then_body");
    body.node("Add", {"nowhere", "nowhere"}, "t");
    body.value(false, "t", onnx::TensorProto::FLOAT);
    scalarInput(reads, "cond", onnx::TensorProto::BOOL);
    auto& n = reads.node("If", {"cond"}, {"y"});
    graphAttr(n, "then_branch", body.g);
    graphAttr(n, "else_branch", body.g);
    reads.output("y", {1});
    auto g = import(reads);
    QVERIFY(!g);
    QVERIFY2(g.error().message.find("'nowhere'") != std::string::npos, g.error().message.c_str());
    QTemporaryDir dir;
    const QString readsPath = dir.filePath("reads.onnx");
    reads.save(readsPath);
    QByteArray err;
    QCOMPARE(runCli({"info", readsPath}, nullptr, &err), 3);
    QVERIFY2(err.contains("then_branch") && err.contains("'nowhere'"), err.constData());

    // A Loop with neither trip count nor condition would never end: run says so, exit 3.
    OnnxModel endless(17);
    Body passing = loopBody();
    passing.node("Identity", {"y_in"}, "y_out");
    passing.value(false, "y_out", onnx::TensorProto::FLOAT);
    endless.input("y0", {2});
    auto& loop = endless.node("Loop", {"", "", "y0"}, {"y"});
    graphAttr(loop, "body", passing.g);
    endless.output("y", {2});
    const QString model = dir.filePath("endless.onnx"), input = dir.filePath("y0.pb");
    endless.save(model);
    writeTensorFile(input, {1, 2}, {2});
    QCOMPARE(
        runCli({"run", model, "--backend", "cpu", "--input", input, "--runs", "1", "--warmup", "0", "--no-host-probe"},
               nullptr, &err),
        3);
    QVERIFY2(err.contains("never end"), err.constData());
}

void TestCpuControlFlow::subgraphsSurviveSaving()
{
    // Saved as RLX JSON and as a .costscope document, the bodies (nested ones too) come back whole and run the same.
    QTemporaryDir dir;
    const auto x = f32({2}, {1, 10}), y0 = f32({2}, {0, 5});
    for (const QString name : {"nested.json", "nested.costscope"}) {
        auto g = import(nestedModel());
        QVERIFY2(g, g ? "" : g.error().message.c_str());
        const std::string path = dir.filePath(name).toStdString();
        auto saved = saveGraphFile(*g, path);
        QVERIFY2(saved, saved ? "" : saved.error().message.c_str());
        auto loaded = loadGraphFile(path);
        QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
        QVERIFY(loaded->graph == *g);
        for (bool flag : {true, false}) {
            auto want = runAll(*g, {boolean(flag), x, y0});
            auto got = runAll(loaded->graph, {boolean(flag), x, y0});
            QVERIFY2(want && got, got ? "" : got.error().message.c_str());
            QCOMPARE(floats(got->front()), floats(want->front()));
        }
    }

    // From the CLI: an ONNX Loop converted to .costscope runs to the same result as the ONNX file.
    const QString onnx = dir.filePath("loop.onnx"), doc = dir.filePath("loop.costscope");
    loopModel(true).save(onnx);
    QByteArray err;
    QCOMPARE(runCli({"convert", onnx, doc}, nullptr, &err), 0);
    const QString xFile = dir.filePath("x.pb"), y0File = dir.filePath("y0.pb"), yFile = dir.filePath("y.pb");
    writeTensorFile(xFile, {1, 10}, {2});
    writeTensorFile(y0File, {0, 5}, {2});
    writeTensorFile(yFile, {3, 35}, {2});
    for (const QString& model : {onnx, doc})
        QCOMPARE(runCli({"run", model, "--backend", "cpu", "--input", xFile, "--input", y0File, "--reference", yFile,
                         "--atol", "1e-6", "--runs", "1", "--warmup", "0", "--no-host-probe"},
                        nullptr, &err),
                 0);
}

QTEST_GUILESS_MAIN(TestCpuControlFlow)
#include "test_cpu_control_flow.moc"
