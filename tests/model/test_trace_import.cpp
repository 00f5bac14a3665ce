// SPDX-License-Identifier: MIT
#include "formats/graph_file.h"
#include "interop/trace_import.h"
#include "test_paths.h"

#include <QtTest>

#include <algorithm>

#include <nlohmann/json.hpp>

using namespace costscope;

class TestTraceImport : public QObject {
    Q_OBJECT

    static Graph named()
    {
        auto loaded = loadGraphFile(test::sourcePath("resources/examples/tiny_transformer.hir.json").toStdString());
        Graph g = loaded ? loaded->graph : Graph{};
        for (Node& n : g.nodes)
            if (n.displayName().empty())
                n.name = "/block/" + n.op.label() + "." + std::to_string(n.id);
        return g;
    }

private slots:
    void perfettoTraceMatchesByName()
    {
        const Graph g = named();
        QVERIFY(g.nodes.size() > 10);
        // A trace as RLX writes with RLX_TRACE_PERFETTO: complete events, µs durations; two runs of node 5.
        nlohmann::json events = nlohmann::json::array();
        const Node& a = g.nodes[5];
        const Node& b = g.nodes[9];
        events.push_back({{"ph", "X"}, {"name", *a.name}, {"ts", 0}, {"dur", 10.0}, {"pid", 1}, {"tid", 1}});
        events.push_back({{"ph", "X"}, {"name", *a.name}, {"ts", 20}, {"dur", 14.0}, {"pid", 1}, {"tid", 1}});
        // Normalised: no leading '/', punctuation folded, case folded.
        std::string loose = normaliseTraceName(*b.name);
        std::transform(loose.begin(), loose.end(), loose.begin(), ::toupper);
        events.push_back({{"ph", "X"}, {"name", loose}, {"ts", 40}, {"dur", 2.5}});
        events.push_back({{"ph", "X"}, {"name", "not_a_node"}, {"ts", 50}, {"dur", 1}});
        events.push_back({{"ph", "B"}, {"name", *a.name}, {"ts", 60}});
        for (const nlohmann::json& text : {nlohmann::json{{"traceEvents", events}}, events}) {
            auto t = parseTrace(text.dump());
            QVERIFY(t);
            QCOMPARE(t->format, TraceFormat::Chrome);
            QCOMPARE(t->events.size(), std::size_t(4));
            const TraceMatch m = matchTrace(g, *t);
            QCOMPARE(m.matchedNodes, std::size_t(2));
            QCOMPARE(m.matchedByNormalisedName, std::size_t(1));
            QCOMPARE(*m.measuredNs[5], 12000.0); // mean of 10 and 14 µs
            QCOMPARE(*m.measuredNs[9], 2500.0);
            QVERIFY(!m.measuredNs[0]);
            QCOMPARE(m.unmatchedEvents, std::vector<std::string>{"not_a_node"});
            QVERIFY(!m.unmatchedNodes.empty());
        }
    }

    void runResultMatchesById()
    {
        const Graph g = named();
        const nlohmann::json run = {{"backend", "cpu"},
                                    {"per_node", {{{"id", g.nodes[4].id}, {"op", "x"}, {"measured_ns", 900}},
                                                  {{"id", 999999}, {"measured_ns", 5}}}}};
        auto t = parseTrace(run.dump());
        QVERIFY(t);
        QCOMPARE(t->format, TraceFormat::CostscopeRun);
        const TraceMatch m = matchTrace(g, *t);
        QCOMPARE(m.matchedNodes, std::size_t(1));
        QCOMPARE(*m.measuredNs[4], 900.0);
        QCOMPARE(m.unmatchedEvents, std::vector<std::string>{"node 999999"});
        QVERIFY(!parseTrace(R"({"per_node": [{"id": 1}]})"));
    }

    void badTracesAreNamed()
    {
        QVERIFY(!parseTrace("{"));
        QVERIFY(!parseTrace("{\"events\": []}"));
        auto noDur = parseTrace(R"([{"ph":"X","name":"n"}])");
        QVERIFY(!noDur);
        QVERIFY(noDur.error().message.find("event 0 (n)") != std::string::npos);
    }

    // A real ONNX Runtime profile of gpt2_12l, batch 2. It was taken with the CPU execution provider (the GPU
    // machine's onnxruntime build had no CUDA provider), so the durations are CPU kernel times.
    void realOnnxRuntimeProfile()
    {
        COSTSCOPE_REQUIRE_SHARED();
        auto loaded = loadGraphFile(test::sharedPath("data/onnx/transformers/gpt2_12l.onnx").toStdString());
        if (!loaded)
            QSKIP("this build cannot load ONNX");
        auto t = loadTrace(test::testDataPath("ort_profile_gpt2.json").toStdString());
        QVERIFY(t);
        QCOMPARE(t->format, TraceFormat::OnnxRuntime);
        QCOMPARE(t->events.size(), std::size_t(754)); // every Node event of the file is a _kernel_time one
        for (const TraceEvent& e : t->events)
            QVERIFY(!e.opName.empty());
        const TraceMatch m = matchTrace(loaded->graph, *t);
        qInfo("ORT gpt2 profile: %zu events, %zu nodes matched, %zu event names unmatched, %zu nodes without an event",
              t->events.size(), m.matchedNodes, m.unmatchedEvents.size(), m.unmatchedNodes.size());
        QVERIFY(m.matchedNodes >= 300);
        for (std::size_t i = 0; i < m.measuredNs.size(); ++i)
            if (m.measuredNs[i])
                QVERIFY(*m.measuredNs[i] >= 0);
    }
};

QTEST_GUILESS_MAIN(TestTraceImport)
#include "test_trace_import.moc"
