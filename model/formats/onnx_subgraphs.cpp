// SPDX-License-Identifier: MIT
// The graph attributes of If, Loop and Scan, imported as Costscope graphs (Node::subgraphs), so that the cost model
// can price a body and a backend can run it. ONNX lets a subgraph read any value of the graphs around it by name;
// each such value becomes an extra Input of the subgraph and an extra input of the node that owns it, so that the
// enclosing graph's edges show every value the control flow reads.
#include "formats/onnx_builder.h"

#include <algorithm>
#include <set>

namespace costscope::onnx_import {

namespace {
// Names `g` reads without defining them (its inputs, initializers and node outputs define names), nested graphs
// included, in the order first read.
void freeNames(const onnx::GraphProto& g, std::vector<std::string>& out)
{
    std::set<std::string> defined;
    for (const auto& v : g.input())
        defined.insert(v.name());
    for (const auto& t : g.initializer())
        defined.insert(t.name());
    for (const auto& n : g.node())
        for (const auto& o : n.output())
            defined.insert(o);
    auto use = [&](const std::string& name) {
        if (!name.empty() && !defined.count(name) && std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(name);
    };
    for (const auto& n : g.node()) {
        for (const auto& i : n.input())
            use(i);
        for (const auto& a : n.attribute()) {
            std::vector<std::string> nested;
            if (a.has_g())
                freeNames(a.g(), nested);
            for (const auto& sub : a.graphs())
                freeNames(sub, nested);
            for (const auto& name : nested)
                use(name);
        }
    }
}

bool isControlFlow(const onnx::NodeProto& n)
{
    return (n.domain().empty() || n.domain() == "ai.onnx")
           && (n.op_type() == "If" || n.op_type() == "Loop" || n.op_type() == "Scan");
}
} // namespace

std::optional<Diagnostic> GraphBuilder::addSubgraphs(const onnx::NodeProto& n, const NodeContext& ctx, Node& node,
                                                     Attrs& attrs)
{
    if (!isControlFlow(n))
        return std::nullopt;
    const std::size_t formal = node.inputs.size();
    std::vector<std::string> outerNames; // the enclosing values already appended to node.inputs, in that order
    for (const auto& a : n.attribute()) {
        if (a.type() != onnx::AttributeProto::GRAPH || !a.has_g())
            continue;
        std::vector<std::string> names;
        freeNames(a.g(), names);
        std::vector<OuterValue> outer;
        Subgraph sub;
        sub.attribute = validUtf8(a.name());
        for (const auto& name : names) {
            auto at = std::find(outerNames.begin(), outerNames.end(), name);
            if (at == outerNames.end()) {
                auto p = producer(name, &ctx);
                if (!p)
                    return ctx.error("its " + sub.attribute + " reads '" + name
                                     + "', which no enclosing node, initializer or input produces");
                node.inputs.push_back(*p);
                outerNames.push_back(name);
                at = outerNames.end() - 1;
            }
            const std::size_t position = formal + static_cast<std::size_t>(at - outerNames.begin());
            sub.outerInputs.push_back(position);
            outer.push_back({name, m_graph.nodes[static_cast<std::size_t>(node.inputs[position])].shape});
        }
        auto g = GraphBuilder(a.g(), m_opset, m_warnings, m_external, std::move(outer)).build();
        if (!g)
            return ctx.error("its " + sub.attribute + " cannot be read: " + g.error().message);
        if (g->name.empty())
            g->name = sub.attribute;
        sub.graph = std::make_shared<const Graph>(std::move(*g));
        node.subgraphs.push_back(std::move(sub));
    }
    if (node.subgraphs.empty())
        return ctx.error(n.op_type() + " has no graph attribute (a " + n.op_type() + " needs its "
                         + (n.op_type() == "If" ? "then_branch and else_branch" : "body") + ")");
    attrs.set("onnx_formal_inputs", static_cast<std::int64_t>(formal));
    // Opset 8's Scan has a batch axis first and an optional sequence_lens input; opset 9 dropped both.
    if (n.op_type() == "Scan" && m_opset < 9)
        attrs.set("onnx_scan_batched", std::int64_t{1});
    if (n.op_type() == "Loop" && n.input_size() > 0 && !n.input(0).empty())
        if (auto it = m_constants.find(n.input(0)); it != m_constants.end())
            if (auto count = constInts(it->second); count && count->size() == 1)
                attrs.set("trip_count", count->front());
    return std::nullopt;
}

} // namespace costscope::onnx_import
