// SPDX-License-Identifier: MIT
#include "cpu/cpu_plan.h"
#include "cpu/precision.h"
#include "plan_inputs.h"
#include "synthetic.h"

#include <chrono>
#include <cstring>

namespace costscope::cpu {

CpuPlan::CpuPlan(std::shared_ptr<ThreadPool> pool, Graph graph, Bindings bindings, std::vector<Step> steps,
                 std::vector<PlanInput> inputs)
    : m_pool(std::move(pool)), m_graph(std::move(graph)), m_bindings(std::move(bindings)), m_steps(std::move(steps))
{
    m_inputs = std::move(inputs);
    m_values.resize(m_graph.nodes.size());
}

Diagnostic CpuPlan::atNode(std::size_t node, const std::string& message) const
{
    const Node& n = m_graph.nodes[node];
    const std::string name = n.displayName();
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, name.empty() ? n.op.label() : name, message);
}

Result<bool> CpuPlan::uploadParameters()
{
    for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
        const Node& n = m_graph.nodes[i];
        if (n.op.kind != OpKind::Param && n.op.kind != OpKind::Constant)
            continue;
        Dims dims;
        for (const Dim& d : n.shape.dims) {
            auto v = d.resolve(m_bindings);
            if (!v || *v < 0)
                return atNode(i, "parameter dim '" + d.toString() + "' is not bound");
            dims.push_back(*v);
        }
        auto t = parameterValues(n, std::move(dims));
        if (!t)
            return atNode(i, t.error().message);
        m_values[i] = std::move(*t);
    }
    m_parametersReady = true;
    return true;
}

Result<bool> CpuPlan::setInputs(const std::vector<HostTensor>& inputs)
{
    if (auto bad = checkPlanInputs(m_inputs, inputs))
        return bad->input ? atNode(*m_graph.indexOf(m_inputs[*bad->input].node), bad->message)
                          : Diagnostic::error(bad->message);
    for (std::size_t i = 0; i < inputs.size(); ++i)
        m_values[*m_graph.indexOf(m_inputs[i].node)] = inputs[i];
    m_inputsReady = true;
    return true;
}

Result<bool> CpuPlan::execute(const std::atomic<bool>* cancel, std::vector<NodeTiming>* timings)
{
    if (!m_parametersReady)
        return Diagnostic::error("parameters were not uploaded");
    if (!m_inputsReady && !m_inputs.empty())
        return Diagnostic::error("inputs were not set");
    using Clock = std::chrono::steady_clock;
    Inputs in;
    for (const Step& step : m_steps) {
        if (!step.kernel)
            continue;
        if (cancel && cancel->load(std::memory_order_relaxed))
            return Diagnostic::error("run cancelled");
        in.clear();
        for (std::size_t p : step.inputs)
            in.push_back(&m_values[p]);
        const Node& node = m_graph.nodes[step.node];
        KernelContext ctx{*m_pool, node, m_bindings};
        const auto t0 = Clock::now();
        KernelStatus status = runConverted(step.kernel, ctx, in, m_values[step.node], m_converted);
        if (timings)
            timings->push_back({node.id, node.op.label(),
                                std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count()});
        if (!status)
            return atNode(step.node, status.error().message);
    }
    return true;
}

Result<bool> CpuPlan::run(const std::atomic<bool>* cancel)
{
    return execute(cancel, nullptr);
}

Result<std::vector<NodeTiming>> CpuPlan::runInstrumented(const std::atomic<bool>* cancel)
{
    std::vector<NodeTiming> timings;
    auto r = execute(cancel, &timings);
    if (!r)
        return r.error();
    return timings;
}

Result<std::vector<HostTensor>> CpuPlan::readOutputs() const
{
    std::vector<HostTensor> out;
    for (NodeId id : m_graph.outputs)
        out.push_back(m_values[*m_graph.indexOf(id)]);
    return out;
}

Result<std::unique_ptr<ExecutablePlan>> compilePlan(std::shared_ptr<ThreadPool> pool, const Graph& g,
                                                    const Bindings& bindings)
{
    auto order = g.topologicalOrder();
    if (!order)
        return order.error();
    std::vector<CpuPlan::Step> steps;
    std::vector<PlanInput> inputs;
    for (std::size_t pos : *order) {
        const Node& n = g.nodes[pos];
        auto nodeError = [&](const std::string& msg) {
            const std::string name = n.displayName();
            return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, name.empty() ? n.op.label() : name, msg);
        };
        auto kernel = kernelForNode(n);
        if (!kernel)
            return nodeError(kernel.error().message);
        CpuPlan::Step step{pos, *kernel, {}};
        for (NodeId id : n.inputs)
            step.inputs.push_back(*g.indexOf(id));
        if (n.op.kind == OpKind::Input) {
            PlanInput in{n.id, n.displayName(), {}, n.shape.dtype};
            for (const Dim& d : n.shape.dims) {
                auto v = d.resolve(bindings);
                if (!v || *v < 0)
                    return nodeError("input dim '" + d.toString() + "' is not bound (use --bind " + d.symbol + "=N)");
                in.dims.push_back(*v);
            }
            inputs.push_back(std::move(in));
        }
        steps.push_back(std::move(step));
    }
    for (NodeId id : g.outputs)
        if (!g.indexOf(id))
            return Diagnostic::error("graph output " + std::to_string(id) + " is not a node");
    return std::unique_ptr<ExecutablePlan>(
        std::make_unique<CpuPlan>(std::move(pool), g, bindings, std::move(steps), std::move(inputs)));
}

} // namespace costscope::cpu
