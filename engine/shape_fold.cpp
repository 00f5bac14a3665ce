// SPDX-License-Identifier: MIT
#include "shape_fold.h"

#include "host_constant.h"
#include "ir/constant_fold.h"
#include "ir/shape_inference.h"
#include "shape_util.h"

#include <algorithm>

namespace costscope {

namespace {
bool isLeaf(const Node& n)
{
    return n.op.kind == OpKind::Input || n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant;
}

bool hasValue(const Node& n)
{
    return (n.op.kind == OpKind::Constant || n.op.kind == OpKind::Param) && n.data != nullptr;
}

// Ops whose output is not a function of their inputs: folding would freeze one draw into every run.
bool isRandom(const Node& n)
{
    const std::string& name = n.op.name;
    return n.op.kind == OpKind::Dropout || name.starts_with("Random") || name == "Bernoulli" || name == "Multinomial";
}

bool isShapeQuery(const Node& n)
{
    return n.op.kind == OpKind::Unknown && (n.op.name == "Shape" || n.op.name == "Size") && n.inputs.size() == 1;
}

// Shape's dims [start, end) (clamped as ONNX clamps them) or Size's element count, as the CPU kernels give them.
HostTensor shapeQueryValue(const Node& n, const std::vector<std::int64_t>& dims)
{
    if (n.op.name == "Size") {
        const std::int64_t count = product(dims);
        return HostTensor::fromBytes({}, DType::I64, &count, sizeof count);
    }
    const auto rank = static_cast<std::int64_t>(dims.size());
    auto clampAxis = [&](std::int64_t a) { return std::clamp(a < 0 ? a + rank : a, std::int64_t{0}, rank); };
    const std::int64_t start = clampAxis(n.op.attrs.intOr("start", 0));
    const std::int64_t end = std::max(start, clampAxis(n.op.attrs.intOr("end", rank)));
    const std::vector<std::int64_t> part(dims.begin() + start, dims.begin() + end);
    return HostTensor::fromBytes({end - start}, DType::I64, part.data(), part.size() * sizeof(std::int64_t));
}

// One walk in topological order: a node's shape is inferred again from its inputs' (already folded) shapes, then
// the node is folded where it can be. `trusted` marks shapes known to be the tensor's: the importer states an
// unknown shape as rank 0 (onnx_builder.cpp), which a Shape must not read as a scalar's.
class Folding {
public:
    Folding(const Graph& g, const Bindings& bindings)
        : m_graph(g), m_bindings(bindings), m_changed(g.nodes.size()), m_trusted(g.nodes.size())
    {
    }

    std::optional<Graph> run()
    {
        auto order = m_graph.topologicalOrder();
        if (!order)
            return std::nullopt;
        for (std::size_t pos : *order)
            visit(pos);
        if (std::none_of(m_changed.begin(), m_changed.end(), [](bool c) { return c; }))
            return std::nullopt;
        m_graph.invalidate();
        return std::move(m_graph);
    }

private:
    bool resolves(const Shape& s) const { return resolvedDims(s, m_bindings).has_value(); }

    void visit(std::size_t pos)
    {
        Node& n = m_graph.nodes[pos];
        if (isLeaf(n)) {
            m_trusted[pos] = n.op.kind != OpKind::Input || resolves(n.shape);
            return;
        }
        std::vector<std::size_t> inputs;
        for (NodeId id : n.inputs)
            if (auto at = m_graph.indexOf(id))
                inputs.push_back(*at);
        if (inputs.size() != n.inputs.size())
            return;
        bool inputChanged = false, inputsTrusted = true, inputsHaveValues = true;
        for (std::size_t in : inputs) {
            inputChanged = inputChanged || m_changed[in];
            inputsTrusted = inputsTrusted && m_trusted[in];
            inputsHaveValues = inputsHaveValues && hasValue(m_graph.nodes[in]);
        }
        const std::optional<Shape> inferred = inferAgain(n, inputs);
        // Static dims of rank > 0 are what the file stated, or what ONNX shape inference found, never a placeholder.
        const bool stated = resolves(n.shape) && n.shape.rank() > 0;
        // A shape that still holds is kept (the plans of static graphs stay as they were); one that follows from a
        // folded input, or that the graph could not state, is replaced.
        if (inferred && *inferred != n.shape && (inputChanged || !stated)) {
            n.shape = *inferred;
            m_changed[pos] = true;
        }
        m_trusted[pos] = (inferred && *inferred == n.shape && inputsTrusted) || (stated && !m_changed[pos]);
        if (isShapeQuery(n))
            foldShapeQuery(pos, inputs.front());
        else if (inputsHaveValues && (inputChanged || !m_trusted[pos] || isIndexArithmetic(n, inputs)))
            foldOnHost(pos);
    }

    // Integer or boolean work on Constants alone (the "Neg(axis)" of an expanded LayerNormalization): an index or
    // a shape, which device backends that compute only in floats cannot run, and weights never are.
    bool isIndexArithmetic(const Node& n, const std::vector<std::size_t>& inputs) const
    {
        const DType t = n.shape.dtype;
        const bool integral = t == DType::I64 || t == DType::I32 || t == DType::Bool;
        return integral && std::all_of(inputs.begin(), inputs.end(), [&](std::size_t in) {
                   return m_graph.nodes[in].op.kind == OpKind::Constant;
               });
    }

    std::optional<Shape> inferAgain(const Node& n, const std::vector<std::size_t>& inputs) const
    {
        // A later output of a multi-output op: the rules give output 0's shape.
        if (!n.subgraphs.empty() || n.op.attrs.intOr("onnx_output", 0) > 0)
            return std::nullopt;
        std::vector<Shape> shapes;
        std::vector<const Node*> nodes;
        for (std::size_t in : inputs) {
            nodes.push_back(&m_graph.nodes[in]);
            shapes.push_back(nodes.back()->shape);
        }
        auto inferred = inferShape(n.op, shapes, nodes);
        if (!inferred || !resolves(*inferred))
            return std::nullopt;
        return *inferred;
    }

    void foldShapeQuery(std::size_t pos, std::size_t input)
    {
        if (!m_trusted[input])
            return;
        if (auto dims = resolvedDims(m_graph.nodes[input].shape, m_bindings))
            fold(pos, shapeQueryValue(m_graph.nodes[pos], *dims));
    }

    void foldOnHost(std::size_t pos)
    {
        const Node& n = m_graph.nodes[pos];
        if (!n.subgraphs.empty() || isRandom(n))
            return;
        if (auto elements = n.shape.elements(m_bindings); m_trusted[pos] && elements > kMaxFoldedShapeElements)
            return;
        auto value = evaluateOnHost(m_graph, n, m_bindings);
        if (value && value->elements() <= kMaxFoldedShapeElements && value->dtype() == n.shape.dtype)
            fold(pos, *value);
    }

    void fold(std::size_t pos, const HostTensor& value)
    {
        makeConstant(m_graph.nodes[pos], value);
        m_changed[pos] = true;
        m_trusted[pos] = true;
    }

    Graph m_graph;
    const Bindings& m_bindings;
    std::vector<bool> m_changed, m_trusted; // by position in m_graph.nodes
};
} // namespace

std::optional<Graph> withShapesFolded(const Graph& g, const Bindings& bindings)
{
    return Folding(g, bindings).run();
}

Result<std::unique_ptr<ExecutablePlan>> compileWithShapesFolded(const Graph& g, const Bindings& bindings,
                                                                const CompileGraph& compile)
{
    auto folded = withShapesFolded(g, bindings);
    if (!folded)
        return compile(g);
    auto plan = compile(hasFoldableConstants(*folded) ? withConstantsFolded(*folded) : *folded);
    if (plan)
        return plan;
    if (auto asGiven = compile(g))
        return asGiven;
    return plan;
}

} // namespace costscope
