// SPDX-License-Identifier: MIT
// ONNX If, Loop and Scan: imported with their subgraphs (values read from the enclosing graph become extra inputs),
// run on the CPU backend and costed as their bodies times the number of runs; a Loop whose trip count is not a
// constant is left uncosted with a note; broken control flow is refused with a message (exit 3 from the CLI).
// Models are written here with libonnx's protobuf classes.
#include "analysis/op_cost.h"
#include "cpu/cpu_backend.h"
#include "formats/onnx_import.h"
#include "measure.h"
#include "onnx_writer.h"
#include "test_paths.h"

#include <QTemporaryDir>
#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
// A subgraph: inputs and outputs of unknown shape (as exporters often write them), nodes added by the caller.
struct Body {
    onnx::GraphProto g;
    explicit Body(const std::string& name) { g.set_name(name); }
    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& in, const std::string& out)
    {
        auto* n = g.add_node();
        n->set_op_type(op);
        n->set_name(out);
        for (const auto& i : in)
            n->add_input(i);
        n->add_output(out);
        return *n;
    }
    void value(bool input, const std::string& name, int type)
    {
        auto* v = input ? g.add_input() : g.add_output();
        v->set_name(name);
        v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    }
};

void graphAttr(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    *a->mutable_g() = g;
}

void scalarInput(OnnxModel& m, const std::string& name, int type)
{
    auto* v = m.graph().add_input();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    v->mutable_type()->mutable_tensor_type()->mutable_shape();
}

Result<Graph> import(const OnnxModel& m)
{
    QTemporaryDir dir;
    const QString path = dir.filePath("m.onnx");
    m.save(path);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Diagnostic::error("cannot read back the model");
    const QByteArray bytes = f.readAll();
    return importOnnx(std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())), nullptr);
}

Result<std::vector<HostTensor>> runAll(const Graph& g, const std::vector<HostTensor>& inputs)
{
    CpuBackend backend;
    auto plan = preparePlan(backend, g, {}, 0, inputs);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->run(); !r)
        return r.error();
    return (*plan)->readOutputs();
}

HostTensor f32(std::vector<std::int64_t> dims, std::vector<float> v)
{
    return HostTensor::fromBytes(std::move(dims), DType::F32, v.data(), v.size() * sizeof(float));
}
HostTensor boolean(bool b)
{
    return HostTensor::fromBytes({}, DType::Bool, &b, 1);
}
HostTensor i64(std::int64_t v)
{
    return HostTensor::fromBytes({}, DType::I64, &v, sizeof v);
}

std::vector<float> floats(const HostTensor& t)
{
    std::vector<float> v;
    for (std::uint64_t i = 0; i < t.elements(); ++i)
        v.push_back(static_cast<float>(t.valueAsDouble(i)));
    return v;
}

// y, ys = Loop(M, cond, y0) with body y = y + x (x read from the enclosing graph), ys stacking every y.
OnnxModel loopModel(bool constantTripCount)
{
    OnnxModel m(17);
    Body body("loop_body");
    body.value(true, "i", onnx::TensorProto::INT64);
    body.value(true, "c_in", onnx::TensorProto::BOOL);
    body.value(true, "y_in", onnx::TensorProto::FLOAT);
    body.node("Identity", {"c_in"}, "c_out");
    body.node("Add", {"y_in", "x"}, "y_out");
    body.node("Identity", {"y_out"}, "scan_out");
    body.value(false, "c_out", onnx::TensorProto::BOOL);
    body.value(false, "y_out", onnx::TensorProto::FLOAT);
    body.value(false, "scan_out", onnx::TensorProto::FLOAT);
    if (constantTripCount) {
        auto* t = m.graph().add_initializer();
        t->set_name("M");
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_int64_data(3);
    } else {
        scalarInput(m, "M", onnx::TensorProto::INT64);
    }
    m.input("x", {2});
    m.input("y0", {2});
    auto& loop = m.node("Loop", {"M", "", "y0"}, {"y", "ys"});
    graphAttr(loop, "body", body.g);
    m.output("y", {2});
    m.output("ys", {3, 2});
    return m;
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
    void brokenControlFlowIsRefused();
};

void TestCpuControlFlow::initTestCase()
{
    if (!onnxImportAvailable())
        QSKIP("this build has no ONNX import (libonnx not found)");
}

void TestCpuControlFlow::ifRunsTheBranchItsConditionPicks()
{
    OnnxModel m(17);
    Body then("then_body"), other("else_body");
    then.node("Add", {"x", "x"}, "t");
    then.value(false, "t", onnx::TensorProto::FLOAT);
    other.node("Mul", {"x", "x"}, "e");
    other.value(false, "e", onnx::TensorProto::FLOAT);
    scalarInput(m, "cond", onnx::TensorProto::BOOL);
    m.input("x", {3});
    auto& n = m.node("If", {"cond"}, {"y"});
    graphAttr(n, "then_branch", then.g);
    graphAttr(n, "else_branch", other.g);
    m.output("y", {3});
    auto g = import(m);
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
    // sum, partials = Scan(init, xs) along axis 1 of xs [2, 3], backwards: the running sum of each column.
    OnnxModel m(17);
    Body body("scan_body");
    body.value(true, "s_in", onnx::TensorProto::FLOAT);
    body.value(true, "x_t", onnx::TensorProto::FLOAT);
    body.node("Add", {"s_in", "x_t"}, "s_out");
    body.node("Identity", {"s_out"}, "partial");
    body.value(false, "s_out", onnx::TensorProto::FLOAT);
    body.value(false, "partial", onnx::TensorProto::FLOAT);
    m.input("init", {2});
    m.input("xs", {2, 3});
    auto& scan = m.node("Scan", {"init", "xs"}, {"sum", "partials"});
    OnnxModel::attr(scan, "num_scan_inputs", std::int64_t{1});
    OnnxModel::attr(scan, "scan_input_axes", std::vector<std::int64_t>{1});
    OnnxModel::attr(scan, "scan_input_directions", std::vector<std::int64_t>{1});
    graphAttr(scan, "body", body.g);
    m.output("sum", {2});
    m.output("partials", {3, 2});
    auto g = import(m);
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    auto out = runAll(*g, {f32({2}, {0, 100}), f32({2, 3}, {1, 2, 3, 4, 5, 6})});
    QVERIFY2(out, out ? "" : out.error().message.c_str());
    QCOMPARE(floats((*out)[0]), (std::vector<float>{6, 115}));
    QCOMPARE(floats((*out)[1]), (std::vector<float>{3, 106, 5, 111, 6, 115}));
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
    Body loopBody("loop_body");
    loopBody.value(true, "i", onnx::TensorProto::INT64);
    loopBody.value(true, "c_in", onnx::TensorProto::BOOL);
    loopBody.value(true, "y_in", onnx::TensorProto::FLOAT);
    loopBody.node("Identity", {"c_in"}, "c_out");
    loopBody.node("Identity", {"y_in"}, "y_out");
    loopBody.value(false, "c_out", onnx::TensorProto::BOOL);
    loopBody.value(false, "y_out", onnx::TensorProto::FLOAT);
    endless.input("y0", {2});
    auto& loop = endless.node("Loop", {"", "", "y0"}, {"y"});
    graphAttr(loop, "body", loopBody.g);
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

QTEST_GUILESS_MAIN(TestCpuControlFlow)
#include "test_cpu_control_flow.moc"
