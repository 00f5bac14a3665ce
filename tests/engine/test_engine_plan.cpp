// SPDX-License-Identifier: MIT
// The backend interface around the kernels: TensorProto files, plans over the shared RLX graphs (synthetic
// weights), timing, cancellation and the errors a caller can get.
#include "analysis/costscope_cost_model.h"
#include "formats/graph_file.h"
#include "ir/constant_fold.h"
#include "measure.h"
#include "op_runner.h"
#include "synthetic.h"
#include "tensor_proto.h"
#include "test_paths.h"

#include <QDir>
#include <QTest>

#include <cstring>

using namespace costscope;
using namespace costscope::test;

namespace {
Bindings bindAll(const Graph& g, std::int64_t value)
{
    Bindings b;
    for (const std::string& s : g.symbols())
        b[s] = value;
    return b;
}

std::vector<HostTensor> arangeInputs(const ExecutablePlan& plan)
{
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : plan.inputs())
        inputs.push_back(arangeInput(in.dims, in.dtype));
    return inputs;
}

Node leaf(NodeId id, OpKind kind, const char* name, Shape shape)
{
    Node n;
    n.id = id;
    Attrs a;
    a.set("name", std::string(name));
    n.op = Op::make(kind, a);
    n.shape = std::move(shape);
    return n;
}
} // namespace

class TestEnginePlan : public QObject {
    Q_OBJECT
private slots:
    void tensorProtoRoundTrip();
    void tensorProtoReadsSuiteFiles();
    void tensorProtoRejectsBadBytes();
    void syntheticValuesAreDeterministic();
    void rlxGraphsRunDeterministically_data();
    void rlxGraphsRunDeterministically();
    void measureReportsStatsAndPerNodeTimes();
    void perNodeTimesAreMediansOverInstrumentedRuns();
    void parameterDataIsUsed();
    void fillsOfAConstantShapeAreFolded();
    void unsupportedOpsNameTheNode();
    void cancellationStopsARun();
    void wrongInputsAreErrors();
    void devicesAreListed();
};

void TestEnginePlan::tensorProtoRoundTrip()
{
    const HostTensor t = f32({2, 3}, {1, 2, 3, 4, 5, -6});
    auto back = parseTensorProto(serializeTensorProto(t, "x"));
    QVERIFY(back);
    QVERIFY(sameFloats(*back, {2, 3}, {1, 2, 3, 4, 5, -6}));
    const HostTensor ints = i64({3}, {-1, 0, 1LL << 40});
    auto intsBack = parseTensorProto(serializeTensorProto(ints));
    QVERIFY(intsBack);
    QCOMPARE(intsBack->dtype(), DType::I64);
    QCOMPARE(intsBack->values<std::int64_t>()[2], std::int64_t(1) << 40);
}

void TestEnginePlan::tensorProtoReadsSuiteFiles()
{
    COSTSCOPE_REQUIRE_SHARED();
    auto in = readTensorProtoFile(sharedPath("data/onnx/node/pytorch-converted/test_Conv2d/test_data_set_0/input_0.pb").toStdString());
    QVERIFY2(in, in ? "" : in.error().message.c_str());
    QCOMPARE(in->dtype(), DType::F32);
    QCOMPARE(in->rank(), std::size_t(4));
    auto idx = readTensorProtoFile(sharedPath("data/onnx/node/pytorch-converted/test_Embedding/test_data_set_0/input_0.pb").toStdString());
    QVERIFY(idx);
    QCOMPARE(idx->dtype(), DType::I64);
    auto light = readTensorProtoFile(sharedPath("data/onnx/light/light_squeezenet_output_0.pb").toStdString());
    QVERIFY(light);
    QCOMPARE(light->elements(), std::uint64_t(1000));
    for (float v : light->values<float>())
        QVERIFY(std::isfinite(v));
}

void TestEnginePlan::tensorProtoRejectsBadBytes()
{
    std::string bytes = serializeTensorProto(f32({4}, {1, 2, 3, 4}));
    auto truncated = parseTensorProto(bytes.substr(0, bytes.size() - 3));
    QVERIFY(!truncated);
    auto wrongSize = parseTensorProto(serializeTensorProto(f32({4}, {1, 2, 3, 4})).replace(1, 1, "\x05"));
    QVERIFY(!wrongSize);
    QVERIFY(!readTensorProtoFile("/nonexistent/file.pb"));
}

void TestEnginePlan::syntheticValuesAreDeterministic()
{
    HostTensor a({1000}, DType::F32), b({1000}, DType::F32), c({1000}, DType::F32);
    fillSynthetic(a, 7);
    fillSynthetic(b, 7);
    fillSynthetic(c, 8);
    QVERIFY(std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0);
    QVERIFY(std::memcmp(a.bytes(), c.bytes(), a.byteSize()) != 0);
    double sumAbs = 0;
    for (float v : a.values<float>()) {
        QVERIFY(std::abs(v) <= 0.05f);
        sumAbs += std::abs(v);
    }
    QVERIFY(sumAbs > 10); // not all zero: mean |v| of a uniform [-0.05, 0.05) is 0.025
    const HostTensor r = arangeInput({2, 2}, DType::F32);
    QVERIFY(sameFloats(r, {2, 2}, {0, 0.25f, 0.5f, 0.75f}));
}

void TestEnginePlan::rlxGraphsRunDeterministically_data()
{
    QTest::addColumn<QString>("path");
    const QString dir = sharedPath("data/rlx");
    if (dir.isEmpty())
        return;
    for (const QString& f : QDir(dir).entryList({"*.json"}, QDir::Files))
        QTest::newRow(qPrintable(f)) << dir + '/' + f;
}

void TestEnginePlan::rlxGraphsRunDeterministically()
{
    COSTSCOPE_REQUIRE_SHARED();
    QFETCH(QString, path);
    auto loaded = loadGraphFile(path.toStdString());
    QVERIFY(loaded);
    const Graph& g = loaded->graph;
    std::vector<std::vector<std::byte>> firstRun;
    for (int attempt = 0; attempt < 2; ++attempt) {
        CpuBackend backend;
        auto plan = backend.compile(g, bindAll(g, 2), 0);
        QVERIFY2(plan, plan ? "" : plan.error().format(path.toStdString()).c_str());
        QVERIFY((*plan)->uploadParameters());
        QVERIFY((*plan)->setInputs(arangeInputs(**plan)));
        auto r = (*plan)->run();
        QVERIFY2(r, r ? "" : r.error().format(path.toStdString()).c_str());
        auto outs = (*plan)->readOutputs();
        QVERIFY(outs);
        QCOMPARE(outs->size(), g.outputs.size());
        for (std::size_t i = 0; i < outs->size(); ++i) {
            const HostTensor& t = (*outs)[i];
            QVERIFY(t.elements() > 0);
            for (std::uint64_t k = 0; k < t.elements(); ++k)
                QVERIFY2(std::isfinite(t.valueAsDouble(k)), describe(t).c_str());
            std::vector<std::byte> bytes(t.bytes(), t.bytes() + t.byteSize());
            if (attempt == 0)
                firstRun.push_back(bytes);
            else
                QVERIFY(bytes == firstRun[i]);
        }
    }
}

void TestEnginePlan::measureReportsStatsAndPerNodeTimes()
{
    COSTSCOPE_REQUIRE_SHARED();
    auto loaded = loadGraphFile(sharedPath("data/rlx/mnist.hir.json").toStdString());
    QVERIFY(loaded);
    CpuBackend backend;
    auto plan = backend.compile(loaded->graph, bindAll(loaded->graph, 4), 0);
    QVERIFY(plan);
    QVERIFY((*plan)->uploadParameters());
    QVERIFY((*plan)->setInputs(arangeInputs(**plan)));
    int progressCalls = 0;
    auto progress = [&](int done, int total) {
        QCOMPARE(total, 5);
        QCOMPARE(done, ++progressCalls);
    };
    auto r = measure(**plan, MeasureOptions{2, 5, true, nullptr, progress});
    QVERIFY(r);
    QCOMPARE(r->whole.runs, 5);
    QCOMPARE(progressCalls, 5); // once per timed run
    QVERIFY(r->whole.minNs > 0 && r->whole.minNs <= r->whole.medianNs && r->whole.medianNs <= r->whole.maxNs);
    QVERIFY(r->whole.spread >= 0);
    std::size_t computeNodes = 0;
    for (const Node& n : loaded->graph.nodes)
        computeNodes += n.op.kind != OpKind::Input && n.op.kind != OpKind::Param && n.op.kind != OpKind::Constant;
    QCOMPARE(r->perNode.size(), computeNodes);
    for (const NodeTiming& t : r->perNode)
        QVERIFY(t.ns >= 0 && !t.label.empty());
    QCOMPARE(r->outputs.size(), loaded->graph.outputs.size());
}

namespace {
// A plan whose instrumented runs report scripted node times, one entry of `script` per run.
class ScriptedPlan : public ExecutablePlan {
public:
    std::vector<std::vector<std::int64_t>> script;
    int instrumented = 0;
    Result<bool> uploadParameters() override { return true; }
    Result<bool> setInputs(const std::vector<HostTensor>&) override { return true; }
    Result<bool> run(const std::atomic<bool>*) override { return true; }
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>*) override
    {
        const auto& ns = script[static_cast<std::size_t>(instrumented++) % script.size()];
        std::vector<NodeTiming> t;
        for (std::size_t i = 0; i < ns.size(); ++i)
            t.push_back({NodeId(i + 1), "Binary.Add", ns[i]});
        return t;
    }
    Result<std::vector<HostTensor>> readOutputs() const override { return std::vector<HostTensor>{}; }
};
} // namespace

void TestEnginePlan::perNodeTimesAreMediansOverInstrumentedRuns()
{
    // One run's outlier (a node at 50x its usual time) must not become the node's time.
    ScriptedPlan plan;
    plan.script = {{100, 900}, {5000, 1000}, {120, 950}, {110, 40000}, {90, 980}};
    MeasureOptions o{0, 1, true, nullptr, {}};
    auto r = measure(plan, o);
    QVERIFY(r);
    QCOMPARE(plan.instrumented, 5);
    QCOMPARE(r->perNode.size(), std::size_t(2));
    QCOMPARE(r->perNode[0].ns, std::int64_t(110));
    QCOMPARE(r->perNode[1].ns, std::int64_t(980));
    QCOMPARE(r->perNode[1].node, NodeId(2));
    // Past the time budget only the first instrumented run is made.
    ScriptedPlan once;
    once.script = plan.script;
    o.instrumentedBudgetS = 0;
    r = measure(once, o);
    QVERIFY(r);
    QCOMPARE(once.instrumented, 1);
    QCOMPARE(r->perNode[0].ns, std::int64_t(100));
}

void TestEnginePlan::parameterDataIsUsed()
{
    Graph g;
    g.add(leaf(0, OpKind::Input, "x", Shape::of({2})));
    Node c = leaf(1, OpKind::Constant, "c", Shape::of({2}));
    const float values[2] = {10, 20};
    c.data = makeTensorData(std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(values),
                                                      reinterpret_cast<const std::uint8_t*>(values) + 8));
    g.add(c);
    Node add;
    add.id = 2;
    add.op = makeOp(OpKind::Binary, {{"op", std::string("Add")}});
    add.inputs = {0, 1};
    add.shape = Shape::of({2});
    g.add(add);
    g.outputs = {2};
    auto out = runGraph(g, {f32({2}, {1, 2})});
    QVERIFY(out);
    QVERIFY(sameFloats(*out, {2}, {11, 22}));
    // Data of the wrong size is an error naming the node.
    g.nodes[1].data = makeTensorData(std::vector<std::uint8_t>(4, 0));
    auto bad = runGraph(g, {f32({2}, {1, 2})});
    QVERIFY(!bad);
    QCOMPARE(bad.error().node, std::optional<NodeId>(1));
}

void TestEnginePlan::fillsOfAConstantShapeAreFolded()
{
    // x + ConstantOfShape(shape [2, 3], 2.5): the fill is made when the plan compiles, never launched, and priced as
    // a stored tensor; a fill whose shape comes from an input stays a kernel.
    Graph g;
    g.add(leaf(0, OpKind::Input, "x", Shape::of({2, 3})));
    Node shape = leaf(1, OpKind::Constant, "shape", Shape::of({2}, DType::I64));
    const std::int64_t dims[2] = {2, 3};
    shape.data = makeTensorData(std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(dims),
                                                          reinterpret_cast<const std::uint8_t*>(dims) + 16));
    g.add(shape);
    Node fill;
    fill.id = 2;
    fill.op = makeOp(OpKind::ConstantOfShape, {{"value", 2.5}});
    fill.inputs = {1};
    fill.shape = Shape::of({2, 3});
    g.add(fill);
    Node add;
    add.id = 3;
    add.op = makeOp(OpKind::Binary, {{"op", std::string("Add")}});
    add.inputs = {0, 2};
    add.shape = Shape::of({2, 3});
    g.add(add);
    g.outputs = {3};
    QVERIFY(isFoldableConstant(g, g.nodes[2]));
    const Graph folded = withConstantsFolded(g);
    QCOMPARE(folded.nodes[2].op.kind, OpKind::Constant);
    QVERIFY(folded.nodes[2].data && folded.nodes[2].data->size() == 6 * sizeof(float));
    auto out = runGraph(g, {f32({2, 3}, {0, 1, 2, 3, 4, 5})});
    QVERIFY(out);
    QVERIFY(sameFloats(*out, {2, 3}, {2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f}));
    CpuBackend backend;
    auto plan = backend.compile(g, {}, 0);
    QVERIFY(plan);
    QVERIFY((*plan)->uploadParameters());
    QVERIFY((*plan)->setInputs({f32({2, 3}, {0, 1, 2, 3, 4, 5})}));
    MeasureOptions mo;
    mo.warmupRuns = 1;
    mo.timedRuns = 2;
    mo.perNode = true;
    auto r = measure(**plan, mo);
    QVERIFY(r);
    QCOMPARE(r->perNode.size(), std::size_t(1)); // the Add alone
    QCOMPARE(r->perNode.front().node, NodeId(3));
    QVERIFY(CostscopeCostModel().work(g, {}).nodes[2].free);
    // A shape computed at run time: the fill stays a kernel and a priced node.
    Graph dynamic = g;
    dynamic.nodes[1] = leaf(1, OpKind::Input, "shape", Shape::of({2}, DType::I64));
    QVERIFY(!isFoldableConstant(dynamic, dynamic.nodes[2]));
    QVERIFY(!CostscopeCostModel().work(dynamic, {}).nodes[2].free);
}

void TestEnginePlan::unsupportedOpsNameTheNode()
{
    Graph custom = oneOpGraph(makeOp(OpKind::Custom, {{"name", std::string("my_op")}}), {f32({1}, {1})});
    auto r = runGraph(custom, {f32({1}, {1})});
    QVERIFY(!r);
    QCOMPARE(r.error().node, std::optional<NodeId>(1));
    QVERIFY(r.error().message.find("cannot run") != std::string::npos);
    Graph unknown = oneOpGraph(Op::unknown("FancyOp", "{}"), {f32({1}, {1})});
    QVERIFY(!runGraph(unknown, {f32({1}, {1})}));
    Graph arity = oneOpGraph(makeOp(OpKind::MatMul), {f32({1}, {1})});
    auto a = runGraph(arity, {f32({1}, {1})});
    QVERIFY(!a);
    QVERIFY(a.error().message.find("inputs") != std::string::npos);
}

void TestEnginePlan::cancellationStopsARun()
{
    const HostTensor x = f32({2}, {1, 2});
    CpuBackend backend;
    auto plan = backend.compile(oneOpGraph(makeOp(OpKind::Activation, {{"op", std::string("Relu")}}), {x}), {}, 0);
    QVERIFY(plan);
    QVERIFY((*plan)->uploadParameters());
    QVERIFY((*plan)->setInputs({x}));
    std::atomic<bool> cancel{true};
    auto r = (*plan)->run(&cancel);
    QVERIFY(!r);
    QVERIFY(r.error().message.find("cancelled") != std::string::npos);
    cancel = false;
    QVERIFY((*plan)->run(&cancel));
}

void TestEnginePlan::wrongInputsAreErrors()
{
    const HostTensor x = f32({2}, {1, 2});
    CpuBackend backend;
    Graph g = oneOpGraph(makeOp(OpKind::Identity), {x});
    g.nodes[0].shape = Shape{{Dim::named("batch")}, DType::F32};
    auto unbound = backend.compile(g, {}, 0);
    QVERIFY(!unbound);
    QVERIFY(unbound.error().message.find("batch") != std::string::npos);
    auto plan = backend.compile(g, {{"batch", 3}}, 0);
    QVERIFY(plan);
    QVERIFY((*plan)->uploadParameters());
    QVERIFY(!(*plan)->setInputs({x}));
    QVERIFY(!(*plan)->setInputs({}));
    QVERIFY(!(*plan)->run()); // inputs were never set
    QVERIFY(!backend.compile(g, {{"batch", 3}}, 1));
}

void TestEnginePlan::devicesAreListed()
{
    CpuBackend backend;
    const auto devices = backend.devices();
    QCOMPARE(devices.size(), std::size_t(1));
    QCOMPARE(devices[0].backend, std::string("cpu"));
    QVERIFY(devices[0].computeUnits >= 1);
    QVERIFY(devices[0].memoryBytes > 0);
    QVERIFY(!devices[0].name.empty());
    QVERIFY(makeBackend("cpu"));
    QVERIFY(!makeBackend("no-such-backend"));
}

QTEST_GUILESS_MAIN(TestEnginePlan)
#include "test_engine_plan.moc"
