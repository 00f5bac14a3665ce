// SPDX-License-Identifier: MIT
// The trace export's structure: processes, node slices back to back, scope slices around them, the args.
#include "report/trace_export.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace costscope;
using Json = nlohmann::json;

namespace {

Node node(NodeId id, OpKind kind, std::vector<NodeId> inputs, std::string name, std::string scope)
{
    Node n;
    n.id = id;
    n.op = Op::make(kind);
    n.inputs = std::move(inputs);
    n.shape = Shape::of({4, 4});
    n.name = std::move(name);
    n.scope = std::move(scope);
    return n;
}

// x → fc (blk/mlp) → act (blk/mlp) → add (blk) → out (no scope)
Graph scopedGraph()
{
    Graph g;
    g.name = "scoped";
    g.add(node(1, OpKind::Input, {}, "x", ""));
    g.add(node(2, OpKind::Param, {}, "w", "blk/mlp"));
    g.add(node(3, OpKind::MatMul, {1, 2}, "fc", "blk/mlp"));
    g.add(node(4, OpKind::Activation, {3}, "act", "blk/mlp"));
    g.add(node(5, OpKind::Binary, {4, 1}, "add", "blk"));
    g.add(node(6, OpKind::Softmax, {5}, "out", ""));
    g.outputs = {6};
    return g;
}

TraceInput measuredRun()
{
    TraceInput in;
    in.measuredTrack = "measured: cpu:0 (test)";
    in.models = {{"costscope", "p"}, {"rlx", "q"}};
    in.nodes = {{3, 1000.0, {800, 500}, 2048, 4096},
                {4, 300.0, {200, 100}, 16, 128},
                {5, 200.0, {100, 100}, 16, 192},
                {6, 500.0, {400, 100}, 64, 128}};
    return in;
}

std::vector<Json> eventsOf(const Json& trace, int pid, const std::string& phase, const std::string& category = {})
{
    std::vector<Json> out;
    for (const Json& e : trace["traceEvents"])
        if (e["pid"] == pid && e["ph"] == phase && (category.empty() || e.value("cat", "") == category))
            out.push_back(e);
    return out;
}

std::string processName(const Json& trace, int pid)
{
    for (const Json& e : eventsOf(trace, pid, "M"))
        if (e["name"] == "process_name")
            return e["args"]["name"];
    return {};
}

} // namespace

class TestTraceExport : public QObject {
    Q_OBJECT
private slots:
    void processesAreTheRunAndEachModel()
    {
        const Json trace = Json::parse(chromeTraceJson(scopedGraph(), measuredRun()));
        QVERIFY(trace["traceEvents"].is_array());
        QCOMPARE(trace["displayTimeUnit"], "ns");
        QCOMPARE(processName(trace, 1), std::string("measured: cpu:0 (test)"));
        QCOMPARE(processName(trace, 2), std::string("predicted: costscope (p)"));
        QCOMPARE(processName(trace, 3), std::string("predicted: rlx (q)"));
        QVERIFY(eventsOf(trace, 4, "M").empty());
    }

    void nodesRunBackToBackNamedLikeTheGraph()
    {
        const Json trace = Json::parse(chromeTraceJson(scopedGraph(), measuredRun()));
        const auto measured = eventsOf(trace, 1, "X", "node");
        QCOMPARE(measured.size(), std::size_t(4));
        const std::vector<std::string> names = {"fc", "act", "add", "out"};
        const std::vector<double> starts = {0.0, 1.0, 1.3, 1.5}, durations = {1.0, 0.3, 0.2, 0.5};
        for (std::size_t i = 0; i < measured.size(); ++i) {
            QCOMPARE(measured[i]["name"].get<std::string>(), names[i]);
            QCOMPARE(measured[i]["ts"].get<double>(), starts[i]);
            QCOMPARE(measured[i]["dur"].get<double>(), durations[i]);
            QCOMPARE(measured[i]["tid"], 1);
        }
        const auto predicted = eventsOf(trace, 2, "X", "node");
        QCOMPARE(predicted.size(), std::size_t(4));
        QCOMPARE(predicted[1]["ts"].get<double>(), 0.8);
        QCOMPARE(predicted[3]["dur"].get<double>(), 0.4);
        QCOMPARE(eventsOf(trace, 3, "X", "node")[2]["ts"].get<double>(), 0.6);
    }

    void argsCarryTheNumbers()
    {
        const Json trace = Json::parse(chromeTraceJson(scopedGraph(), measuredRun()));
        const Json fc = eventsOf(trace, 2, "X", "node")[0]["args"];
        QCOMPARE(fc["node_id"], 3);
        QCOMPARE(fc["op"].get<std::string>(), Op::make(OpKind::MatMul).label());
        QCOMPARE(fc["scope"], "blk/mlp");
        QCOMPARE(fc["measured_ns"].get<double>(), 1000.0);
        QCOMPARE(fc["predicted_ns"]["costscope"].get<double>(), 800.0);
        QCOMPARE(fc["predicted_ns"]["rlx"].get<double>(), 500.0);
        QCOMPARE(fc["flops"].get<double>(), 2048.0);
        QCOMPARE(fc["bytes"], 4096);
    }

    void scopesNestAroundTheirNodes()
    {
        const Json trace = Json::parse(chromeTraceJson(scopedGraph(), measuredRun()));
        const auto scopes = eventsOf(trace, 1, "X", "scope");
        QCOMPARE(scopes.size(), std::size_t(2));
        // The outer scope comes first: viewers nest slices of one start by the order they read them.
        QCOMPARE(scopes[0]["name"], "blk");
        QCOMPARE(scopes[0]["ts"].get<double>(), 0.0);
        QCOMPARE(scopes[0]["dur"].get<double>(), 1.5);
        QCOMPARE(scopes[1]["name"], "mlp");
        QCOMPARE(scopes[1]["args"]["scope"], "blk/mlp");
        QCOMPARE(scopes[1]["dur"].get<double>(), 1.3);
        std::vector<std::string> order;
        for (const Json& e : trace["traceEvents"])
            if (e["pid"] == 1 && e["ph"] == "X")
                order.push_back(e["name"]);
        QCOMPARE(order, (std::vector<std::string>{"blk", "mlp", "fc", "act", "add", "out"}));
    }

    // A node that took no time comes before the node after it, at the same start: else it reads as its child.
    void aZeroLengthNodeIsNotItsSuccessorsChild()
    {
        TraceInput in = measuredRun();
        in.nodes[1].measuredNs = 0.0;
        const Json trace = Json::parse(chromeTraceJson(scopedGraph(), in));
        const auto nodes = eventsOf(trace, 1, "X", "node");
        QCOMPARE(nodes[1]["name"], "act");
        QCOMPARE(nodes[1]["dur"].get<double>(), 0.0);
        QCOMPARE(nodes[2]["name"], "add");
        QCOMPARE(nodes[2]["ts"].get<double>(), nodes[1]["ts"].get<double>());
    }

    void withoutMeasurementsOnlyPredictions()
    {
        TraceInput in = measuredRun();
        for (TraceNode& n : in.nodes)
            n.measuredNs.reset();
        const Json trace = Json::parse(chromeTraceJson(scopedGraph(), in));
        QVERIFY(eventsOf(trace, 1, "M").empty());
        QVERIFY(eventsOf(trace, 1, "X").empty());
        QCOMPARE(eventsOf(trace, 2, "X", "node").size(), std::size_t(4));
        QVERIFY(!eventsOf(trace, 2, "X", "node")[0]["args"].contains("measured_ns"));
    }
};

QTEST_GUILESS_MAIN(TestTraceExport)
#include "test_trace_export.moc"
