// SPDX-License-Identifier: MIT
#include "control_flow_plan.h"

#include "plan_inputs.h"
#include "shape_util.h"
#include "synthetic.h"

#include <chrono>
#include <map>
#include <set>

namespace costscope {

namespace {
using Dims = std::vector<std::int64_t>;
using Signature = std::vector<std::pair<Dims, DType>>;

bool isLeaf(const Node& n)
{
    return n.op.kind == OpKind::Input || n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant;
}

Diagnostic atNode(const Node& n, const std::string& message)
{
    const std::string name = n.displayName();
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, name.empty() ? n.op.label() : name, message);
}

// Nodes the backend runs in one plan: their inputs from outside (values of earlier stretches, control-flow nodes
// or graph inputs; Params and Constants travel with the stretch instead) and the values read after it.
struct Stretch {
    std::vector<std::size_t> nodes, params, inputs, outputs; // positions in the graph
    std::unique_ptr<ExecutablePlan> plan;
    Signature signature;
    std::vector<std::size_t> feed; // plan input i is inputs[feed[i]]
};

class ControlFlowPlan : public ExecutablePlan {
public:
    ControlFlowPlan(Graph g, Bindings bindings, CompileStraight compile)
        : m_graph(std::move(g)), m_bindings(std::move(bindings)), m_compile(std::move(compile))
    {
    }

    std::optional<Diagnostic> build();
    Result<bool> uploadParameters() override;
    Result<bool> setInputs(const std::vector<HostTensor>& inputs) override;
    Result<bool> run(const std::atomic<bool>* cancel) override { return execute(cancel, nullptr); }
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>* cancel) override
    {
        std::vector<NodeTiming> timings;
        if (auto r = execute(cancel, &timings); !r)
            return r.error();
        return timings;
    }
    Result<std::vector<HostTensor>> readOutputs() const override;

private:
    // A step runs a stretch (stretch >= 0) or the control-flow node at `node`.
    struct Step {
        int stretch = -1;
        std::size_t node = 0;
    };
    std::optional<Diagnostic> compileStretch(Stretch& s, const Signature& signature);
    Result<bool> runStretch(Stretch& s, std::vector<NodeTiming>* timings);
    Result<bool> runHost(std::size_t pos, std::map<const Graph*, ControlFlowOutputs>& done);
    Result<bool> execute(const std::atomic<bool>* cancel, std::vector<NodeTiming>* timings);
    MakeSubgraphRunner bodyRunners();

    Graph m_graph;
    Bindings m_bindings;
    CompileStraight m_compile;
    std::vector<Step> m_steps;
    std::vector<Stretch> m_stretches;
    std::vector<std::optional<HostTensor>> m_values; // per graph node: inputs, parameters and results of the run
    std::map<const Subgraph*, std::unique_ptr<SubgraphRunner>> m_bodies;
    bool m_parametersReady = false;
};

std::optional<Diagnostic> ControlFlowPlan::build()
{
    auto order = m_graph.topologicalOrder();
    if (!order)
        return order.error();
    m_values.resize(m_graph.nodes.size());
    std::vector<int> stretchOf(m_graph.nodes.size(), -1);
    for (std::size_t pos : *order) {
        const Node& n = m_graph.nodes[pos];
        if (n.op.kind == OpKind::Input) {
            auto dims = resolvedDims(n.shape, m_bindings);
            if (!dims)
                return atNode(n, "input shape " + n.shape.toString() + " is not bound (use --bind)");
            m_inputs.push_back({n.id, n.displayName(), *dims, n.shape.dtype});
        }
        if (isLeaf(n))
            continue;
        if (isControlFlow(n)) {
            m_steps.push_back({-1, pos});
            continue;
        }
        if (m_steps.empty() || m_steps.back().stretch < 0) {
            m_steps.push_back({static_cast<int>(m_stretches.size()), 0});
            m_stretches.emplace_back();
        }
        m_stretches.back().nodes.push_back(pos);
        stretchOf[pos] = m_steps.back().stretch;
    }
    const auto consumers = m_graph.consumers();
    for (std::size_t k = 0; k < m_stretches.size(); ++k) {
        Stretch& s = m_stretches[k];
        std::set<std::size_t> inputs, params;
        for (std::size_t pos : s.nodes) {
            for (NodeId id : m_graph.nodes[pos].inputs) {
                const std::size_t in = *m_graph.indexOf(id);
                const Node& from = m_graph.nodes[in];
                if (from.op.kind == OpKind::Param || from.op.kind == OpKind::Constant)
                    params.insert(in);
                else if (stretchOf[in] != static_cast<int>(k))
                    inputs.insert(in);
            }
            const bool readLater = std::any_of(consumers[pos].begin(), consumers[pos].end(),
                                               [&](std::size_t c) { return stretchOf[c] != static_cast<int>(k); });
            if (readLater || m_graph.isOutput(m_graph.nodes[pos].id))
                s.outputs.push_back(pos);
        }
        s.inputs.assign(inputs.begin(), inputs.end());
        s.params.assign(params.begin(), params.end());
        // Compiled now where the stated shapes tell its inputs' dims, so that an op the backend lacks is named here.
        Signature stated;
        for (std::size_t in : s.inputs)
            if (auto dims = resolvedDims(m_graph.nodes[in].shape, m_bindings))
                stated.emplace_back(*dims, m_graph.nodes[in].shape.dtype);
        if (stated.size() == s.inputs.size())
            if (auto e = compileStretch(s, stated))
                return e;
    }
    return std::nullopt;
}

std::optional<Diagnostic> ControlFlowPlan::compileStretch(Stretch& s, const Signature& signature)
{
    Graph g;
    g.name = m_graph.name;
    std::map<NodeId, std::size_t> given;
    for (std::size_t i = 0; i < s.inputs.size(); ++i) {
        const Node& from = m_graph.nodes[s.inputs[i]];
        Node in;
        in.id = from.id;
        in.op = Op::make(OpKind::Input);
        in.name = from.displayName().empty() ? "value " + std::to_string(from.id) : from.displayName();
        in.shape = Shape::of(signature[i].first, signature[i].second);
        g.add(std::move(in));
        given[from.id] = i;
    }
    for (std::size_t pos : s.params)
        g.add(m_graph.nodes[pos]);
    for (std::size_t pos : s.nodes)
        g.add(m_graph.nodes[pos]);
    for (std::size_t pos : s.outputs)
        g.outputs.push_back(m_graph.nodes[pos].id);
    bindStatedShapes(g, m_bindings);
    auto plan = m_compile(g, m_bindings);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    s.feed.clear();
    for (const PlanInput& p : (*plan)->inputs())
        s.feed.push_back(given.at(p.node));
    s.plan = std::move(*plan);
    s.signature = signature;
    return std::nullopt;
}

// A body's runner kept by the plan, lent to one run of its op.
class LentRunner : public SubgraphRunner {
public:
    explicit LentRunner(SubgraphRunner& runner) : m_runner(runner) {}
    Result<std::vector<HostTensor>> run(const std::vector<HostTensor>& inputs) override { return m_runner.run(inputs); }

private:
    SubgraphRunner& m_runner;
};

MakeSubgraphRunner ControlFlowPlan::bodyRunners()
{
    // Kept between runs, so that a body is compiled once, not once per run of the graph; a body may hold control
    // flow of its own, compiled the way this graph was.
    return [this](const Subgraph& sub) -> std::unique_ptr<SubgraphRunner> {
        auto& kept = m_bodies[&sub];
        if (!kept)
            kept = std::make_unique<PlanSubgraphRunner>(sub, [compile = m_compile](const Graph& body) {
                return hasControlFlow(body) ? compileAroundControlFlow(body, {}, compile) : compile(body, {});
            });
        return std::make_unique<LentRunner>(*kept);
    };
}

Result<bool> ControlFlowPlan::uploadParameters()
{
    for (std::size_t pos = 0; pos < m_graph.nodes.size(); ++pos) {
        const Node& n = m_graph.nodes[pos];
        if (n.op.kind != OpKind::Param && n.op.kind != OpKind::Constant)
            continue;
        auto dims = resolvedDims(n.shape, m_bindings);
        if (!dims)
            return atNode(n, "parameter shape " + n.shape.toString() + " is not bound");
        auto values = parameterValues(n, *dims);
        if (!values)
            return atNode(n, values.error().message);
        m_values[pos] = std::move(*values);
    }
    m_parametersReady = true;
    return true;
}

Result<bool> ControlFlowPlan::setInputs(const std::vector<HostTensor>& inputs)
{
    if (auto bad = checkPlanInputs(m_inputs, inputs))
        return bad->input ? atNode(*m_graph.find(m_inputs[*bad->input].node), bad->message)
                          : Diagnostic::error(bad->message);
    for (std::size_t i = 0; i < inputs.size(); ++i)
        m_values[*m_graph.indexOf(m_inputs[i].node)] = inputs[i];
    return true;
}

Result<bool> ControlFlowPlan::runStretch(Stretch& s, std::vector<NodeTiming>* timings)
{
    Signature signature;
    for (std::size_t in : s.inputs)
        signature.emplace_back(m_values[in]->dims(), m_values[in]->dtype());
    if (!s.plan || signature != s.signature)
        if (auto e = compileStretch(s, signature))
            return *e;
    std::vector<HostTensor> fed;
    for (std::size_t i : s.feed)
        fed.push_back(*m_values[s.inputs[i]]);
    if (auto r = s.plan->setInputs(fed); !r)
        return r.error();
    if (timings) {
        auto t = s.plan->runInstrumented(nullptr);
        if (!t)
            return t.error();
        timings->insert(timings->end(), t->begin(), t->end());
    } else if (auto r = s.plan->run(nullptr); !r) {
        return r.error();
    }
    auto out = s.plan->readOutputs();
    if (!out)
        return out.error();
    for (std::size_t i = 0; i < s.outputs.size(); ++i)
        m_values[s.outputs[i]] = std::move((*out)[i]);
    return true;
}

Result<bool> ControlFlowPlan::runHost(std::size_t pos, std::map<const Graph*, ControlFlowOutputs>& done)
{
    const Node& n = m_graph.nodes[pos];
    std::vector<const HostTensor*> in;
    for (NodeId id : n.inputs) {
        const auto& v = m_values[*m_graph.indexOf(id)];
        in.push_back(v ? &*v : nullptr);
    }
    // The importer gives a node per ONNX output, each with the op's subgraphs: the op runs once per run.
    const Graph* key = n.subgraphs.front().graph.get();
    auto it = done.find(key);
    if (it == done.end()) {
        auto outputs = runControlFlow(n, in, bodyRunners());
        if (!outputs)
            return atNode(n, outputs.error().message);
        it = done.emplace(key, std::move(*outputs)).first;
    }
    auto picked = pickControlFlowOutput(it->second, n, m_bindings);
    if (!picked)
        return atNode(n, picked.error().message);
    m_values[pos] = std::move(*picked);
    return true;
}

Result<bool> ControlFlowPlan::execute(const std::atomic<bool>* cancel, std::vector<NodeTiming>* timings)
{
    if (!m_parametersReady)
        return Diagnostic::error("parameters were not uploaded");
    for (const PlanInput& p : m_inputs)
        if (!m_values[*m_graph.indexOf(p.node)])
            return Diagnostic::error("inputs were not set");
    std::map<const Graph*, ControlFlowOutputs> done;
    for (const Step& step : m_steps) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return Diagnostic::error("run cancelled");
        if (step.stretch >= 0) {
            if (auto r = runStretch(m_stretches[static_cast<std::size_t>(step.stretch)], timings); !r)
                return r;
            continue;
        }
        const auto start = std::chrono::steady_clock::now();
        if (auto r = runHost(step.node, done); !r)
            return r;
        if (timings) {
            const Node& n = m_graph.nodes[step.node];
            const auto ns =
                std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
            timings->push_back({n.id, n.op.label(), ns.count()});
        }
    }
    return true;
}

Result<std::vector<HostTensor>> ControlFlowPlan::readOutputs() const
{
    std::vector<HostTensor> out;
    for (NodeId id : m_graph.outputs) {
        const auto& v = m_values[*m_graph.indexOf(id)];
        if (!v)
            return Diagnostic::error("graph output " + std::to_string(id) + " has no value: the graph has not run");
        out.push_back(*v);
    }
    return out;
}
} // namespace

Result<std::unique_ptr<ExecutablePlan>> compileAroundControlFlow(const Graph& g, const Bindings& bindings,
                                                                 CompileStraight compile)
{
    for (NodeId id : g.outputs)
        if (!g.indexOf(id))
            return Diagnostic::error("graph output " + std::to_string(id) + " is not a node");
    auto plan = std::make_unique<ControlFlowPlan>(g, bindings, std::move(compile));
    if (auto e = plan->build())
        return *e;
    return std::unique_ptr<ExecutablePlan>(std::move(plan));
}

} // namespace costscope
