// SPDX-License-Identifier: MIT
#include "control_flow.h"

#include "ir/shape_inference.h"
#include "shape_util.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace costscope {

namespace {
using Dims = std::vector<std::int64_t>;

Diagnostic fail(std::string message)
{
    return Diagnostic::error(std::move(message));
}

const Subgraph* subgraph(const Node& node, const std::string& attribute)
{
    for (const Subgraph& s : node.subgraphs)
        if (s.attribute == attribute && s.graph)
            return &s;
    return nullptr;
}

// The op's inputs as ONNX numbers them: node.inputs holds the ONNX inputs present (onnx_input_slots gives their
// slots where optional ones were omitted), then the enclosing values its subgraphs read.
struct OpInputs {
    const Node& node;
    const std::vector<const HostTensor*>& all;

    std::size_t formalCount() const
    {
        return std::min(all.size(), static_cast<std::size_t>(node.op.attrs.intOr(
                                        "onnx_formal_inputs", static_cast<std::int64_t>(all.size()))));
    }
    // Number of ONNX inputs of the op, omitted optional ones included.
    std::size_t slots() const
    {
        if (auto s = node.op.attrs.getInts("onnx_input_slots"); s && !s->empty())
            return static_cast<std::size_t>(s->back() + 1);
        return formalCount();
    }
    // ONNX input `slot`, or nullptr when it was omitted.
    const HostTensor* at(std::size_t slot) const
    {
        const std::size_t formal = formalCount();
        auto s = node.op.attrs.getInts("onnx_input_slots");
        if (!s)
            return slot < formal ? all[slot] : nullptr;
        for (std::size_t i = 0; i < s->size() && i < formal; ++i)
            if (static_cast<std::size_t>((*s)[i]) == slot)
                return all[i];
        return nullptr;
    }
    // The subgraph's inputs: `own`, then the enclosing values it reads.
    std::vector<HostTensor> forBody(const Subgraph& sub, std::vector<HostTensor> own) const
    {
        for (std::size_t position : sub.outerInputs)
            own.push_back(*all[position]);
        return own;
    }
};

bool truthy(const HostTensor& t)
{
    return t.elements() > 0 && t.valueAsDouble(0) != 0;
}

// Dims split around `axis`: elements before it, its length, elements after it.
struct AxisSplit {
    std::int64_t outer = 1, length = 1, inner = 1;
};
AxisSplit splitAt(const Dims& dims, std::size_t axis)
{
    AxisSplit s;
    for (std::size_t i = 0; i < dims.size(); ++i)
        (i < axis ? s.outer : i == axis ? s.length : s.inner) *= dims[i];
    return s;
}

// Slice `index` of t along `axis` (that axis removed).
HostTensor sliceAlong(const HostTensor& t, std::size_t axis, std::int64_t index)
{
    Dims dims = t.dims();
    const AxisSplit s = splitAt(dims, axis);
    dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(axis));
    HostTensor out(dims, t.dtype());
    const std::size_t row = static_cast<std::size_t>(s.inner) * t.elementSize();
    for (std::int64_t o = 0; o < s.outer; ++o)
        std::memcpy(out.bytes() + static_cast<std::size_t>(o) * row,
                    t.bytes() + static_cast<std::size_t>(o * s.length + index) * row, row);
    return out;
}

// The slices stacked along a new `axis` (slices[i] at position i).
Result<HostTensor> stackAlong(const std::vector<HostTensor>& slices, std::size_t axis, const char* what)
{
    Dims dims = slices.front().dims();
    if (axis > dims.size())
        return fail(std::string(what) + " axis " + std::to_string(axis) + " is out of range for rank "
                    + std::to_string(dims.size() + 1));
    for (const HostTensor& s : slices)
        if (s.dims() != slices.front().dims() || s.dtype() != slices.front().dtype())
            return fail(std::string(what) + " changes shape between iterations (" + describe(slices.front()) + ", then "
                        + describe(s) + "): they cannot be stacked");
    dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(axis), static_cast<std::int64_t>(slices.size()));
    HostTensor out(dims, slices.front().dtype());
    const AxisSplit s = splitAt(dims, axis);
    const std::size_t row = static_cast<std::size_t>(s.inner) * out.elementSize();
    for (std::int64_t o = 0; o < s.outer; ++o)
        for (std::int64_t i = 0; i < s.length; ++i)
            std::memcpy(out.bytes() + static_cast<std::size_t>(o * s.length + i) * row,
                        slices[static_cast<std::size_t>(i)].bytes() + static_cast<std::size_t>(o) * row, row);
    return out;
}

// Loops without a trip count stop when their condition turns false; this bounds one that never does.
constexpr std::int64_t kMaxOpenIterations = 10'000'000;

Result<ControlFlowOutputs> runIf(const OpInputs& in, const MakeSubgraphRunner& makeRunner)
{
    const HostTensor* cond = in.at(0);
    if (!cond || cond->elements() == 0)
        return fail("If needs its condition (a one-element tensor)");
    const char* branch = truthy(*cond) ? "then_branch" : "else_branch";
    const Subgraph* sub = subgraph(in.node, branch);
    if (!sub)
        return fail(std::string("If has no ") + branch);
    auto outputs = makeRunner(*sub)->run(in.forBody(*sub, {}));
    if (!outputs)
        return outputs.error();
    return ControlFlowOutputs{std::move(*outputs), false};
}

Result<ControlFlowOutputs> runLoop(const OpInputs& in, const MakeSubgraphRunner& makeRunner)
{
    const Subgraph* sub = subgraph(in.node, "body");
    if (!sub)
        return fail("Loop has no body");
    const HostTensor* maxTrips = in.at(0);
    const HostTensor* initialCond = in.at(1);
    if (!maxTrips && !initialCond)
        return fail("Loop has neither a trip count (input 0) nor a condition (input 1): it would never end");
    const std::int64_t trips = maxTrips ? maxTrips->valueAsInt(0) : kMaxOpenIterations;
    bool cond = initialCond ? truthy(*initialCond) : true;
    std::vector<HostTensor> carried;
    for (std::size_t slot = 2; slot < in.slots(); ++slot) {
        const HostTensor* v = in.at(slot);
        if (!v)
            return fail("Loop's loop-carried input " + std::to_string(slot) + " is missing");
        carried.push_back(*v);
    }
    auto body = makeRunner(*sub);
    std::vector<std::vector<HostTensor>> scans;
    std::int64_t i = 0;
    for (; i < trips && cond; ++i) {
        std::vector<HostTensor> own{HostTensor::fromBytes({}, DType::I64, &i, sizeof i),
                                    HostTensor::fromBytes({}, DType::Bool, &cond, 1)};
        own.insert(own.end(), carried.begin(), carried.end());
        auto outputs = body->run(in.forBody(*sub, std::move(own)));
        if (!outputs)
            return outputs.error();
        if (outputs->size() < 1 + carried.size())
            return fail("Loop's body gives " + std::to_string(outputs->size()) + " outputs; it needs the condition and "
                        + std::to_string(carried.size()) + " loop-carried values");
        cond = truthy((*outputs)[0]);
        for (std::size_t c = 0; c < carried.size(); ++c)
            carried[c] = std::move((*outputs)[1 + c]);
        scans.resize(outputs->size() - 1 - carried.size());
        for (std::size_t s = 0; s < scans.size(); ++s)
            scans[s].push_back(std::move((*outputs)[1 + carried.size() + s]));
    }
    if (i >= kMaxOpenIterations && !maxTrips)
        return fail("Loop ran " + std::to_string(kMaxOpenIterations)
                    + " iterations without its condition turning false; stopped");
    ControlFlowOutputs result{std::move(carried), i == 0};
    for (const auto& slices : scans) {
        auto stacked = stackAlong(slices, 0, "Loop's scan output");
        if (!stacked)
            return stacked.error();
        result.values.push_back(std::move(*stacked));
    }
    return result;
}

// One pass of Scan's body over the scan inputs (opset 9's form: no batch axis).
struct ScanPass {
    std::vector<HostTensor> states;
    std::vector<const HostTensor*> scanned;
    std::vector<std::int64_t> inAxes, inDirections, outAxes, outDirections;
};

Result<ControlFlowOutputs> scanOnce(ScanPass& p, SubgraphRunner& body, const OpInputs& in, const Subgraph& sub)
{
    std::vector<std::size_t> axes;
    std::int64_t length = -1;
    for (std::size_t s = 0; s < p.scanned.size(); ++s) {
        const auto rank = static_cast<std::int64_t>(p.scanned[s]->rank());
        const std::int64_t axis = p.inAxes[s] < 0 ? p.inAxes[s] + rank : p.inAxes[s];
        if (axis < 0 || axis >= rank)
            return fail("Scan input axis " + std::to_string(p.inAxes[s]) + " is out of range for "
                        + describe(*p.scanned[s]));
        axes.push_back(static_cast<std::size_t>(axis));
        const std::int64_t n = p.scanned[s]->dim(static_cast<std::size_t>(axis));
        if (length >= 0 && n != length)
            return fail("Scan's scan inputs differ in length (" + std::to_string(length) + " and " + std::to_string(n)
                        + ")");
        length = n;
    }
    const std::size_t stateCount = p.states.size();
    std::vector<std::vector<HostTensor>> scans;
    for (std::int64_t t = 0; t < length; ++t) {
        std::vector<HostTensor> own = p.states;
        for (std::size_t s = 0; s < p.scanned.size(); ++s)
            own.push_back(sliceAlong(*p.scanned[s], axes[s], p.inDirections[s] ? length - 1 - t : t));
        auto outputs = body.run(in.forBody(sub, std::move(own)));
        if (!outputs)
            return outputs.error();
        if (outputs->size() < stateCount)
            return fail("Scan's body gives " + std::to_string(outputs->size()) + " outputs, fewer than its "
                        + std::to_string(stateCount) + " states");
        for (std::size_t c = 0; c < stateCount; ++c)
            p.states[c] = std::move((*outputs)[c]);
        scans.resize(outputs->size() - stateCount);
        for (std::size_t s = 0; s < scans.size(); ++s)
            scans[s].push_back(std::move((*outputs)[stateCount + s]));
    }
    ControlFlowOutputs result{p.states, length == 0};
    p.outAxes.resize(scans.size(), 0);
    p.outDirections.resize(scans.size(), 0);
    for (std::size_t s = 0; s < scans.size(); ++s) {
        std::vector<HostTensor>& slices = scans[s];
        if (p.outDirections[s])
            std::reverse(slices.begin(), slices.end());
        const auto rank = static_cast<std::int64_t>(slices.front().rank()) + 1;
        const std::int64_t axis = p.outAxes[s] < 0 ? p.outAxes[s] + rank : p.outAxes[s];
        if (axis < 0 || axis >= rank)
            return fail("Scan output axis " + std::to_string(p.outAxes[s]) + " is out of range for rank "
                        + std::to_string(rank));
        auto stacked = stackAlong(slices, static_cast<std::size_t>(axis), "Scan's scan output");
        if (!stacked)
            return stacked.error();
        result.values.push_back(std::move(*stacked));
    }
    return result;
}

std::vector<std::int64_t> intsAttr(const Node& node, const char* key, std::size_t count)
{
    auto v = node.op.attrs.getInts(key).value_or(std::vector<std::int64_t>{});
    v.resize(count, 0);
    return v;
}

Result<ControlFlowOutputs> runScan(const OpInputs& in, const MakeSubgraphRunner& makeRunner)
{
    const Subgraph* sub = subgraph(in.node, "body");
    if (!sub)
        return fail("Scan has no body");
    // Opset 8's Scan has a batch axis and an optional sequence_lens input first; opset 9 dropped both.
    if (in.node.op.attrs.has("directions") || (in.slots() > 0 && !in.at(0)))
        return fail("Scan of opset 8 (a batch axis and sequence_lens) is not supported; re-export at opset 9 or "
                    "newer");
    const auto scanCount = static_cast<std::size_t>(in.node.op.attrs.intOr("num_scan_inputs", 0));
    const std::size_t formal = in.slots();
    if (scanCount == 0 || scanCount > formal)
        return fail("Scan's num_scan_inputs must be between 1 and its " + std::to_string(formal) + " inputs");
    ScanPass p;
    for (std::size_t slot = 0; slot < formal; ++slot) {
        const HostTensor* v = in.at(slot);
        if (!v)
            return fail("Scan's input " + std::to_string(slot) + " is missing");
        if (slot < formal - scanCount)
            p.states.push_back(*v);
        else
            p.scanned.push_back(v);
    }
    p.inAxes = intsAttr(in.node, "scan_input_axes", scanCount);
    p.inDirections = intsAttr(in.node, "scan_input_directions", scanCount);
    p.outAxes = in.node.op.attrs.getInts("scan_output_axes").value_or(std::vector<std::int64_t>{});
    p.outDirections = in.node.op.attrs.getInts("scan_output_directions").value_or(std::vector<std::int64_t>{});
    auto body = makeRunner(*sub);
    return scanOnce(p, *body, in, *sub);
}
} // namespace

bool isControlFlow(const Node& n)
{
    return !n.subgraphs.empty() && (n.op.name == "If" || n.op.name == "Loop" || n.op.name == "Scan");
}

bool hasControlFlow(const Graph& g)
{
    return std::any_of(g.nodes.begin(), g.nodes.end(), [](const Node& n) { return isControlFlow(n); });
}

Result<ControlFlowOutputs> runControlFlow(const Node& node, const std::vector<const HostTensor*>& inputs,
                                          const MakeSubgraphRunner& makeRunner)
{
    const OpInputs in{node, inputs};
    for (std::size_t position = in.formalCount(); position < inputs.size(); ++position)
        if (!inputs[position])
            return fail(node.op.name + " reads an enclosing value that has no value");
    if (node.op.name == "If")
        return runIf(in, makeRunner);
    if (node.op.name == "Loop")
        return runLoop(in, makeRunner);
    if (node.op.name == "Scan")
        return runScan(in, makeRunner);
    return fail(node.op.name + " is not a control-flow op");
}

Result<HostTensor> pickControlFlowOutput(ControlFlowOutputs& outputs, const Node& outputNode, const Bindings& bindings)
{
    const auto k = static_cast<std::size_t>(outputNode.op.attrs.intOr("onnx_output", 0));
    if (k < outputs.values.size())
        return outputs.values[k];
    if (outputs.noIterations) {
        Dims dims{0};
        if (auto stated = resolvedDims(outputNode.shape, bindings); stated && !stated->empty()) {
            dims = *stated;
            dims[0] = 0;
        }
        return HostTensor(dims, outputNode.shape.dtype);
    }
    return fail(outputNode.op.name + " gives " + std::to_string(outputs.values.size()) + " outputs, not "
                + std::to_string(k + 1));
}

void bindStatedShapes(Graph& g, const Bindings& bindings)
{
    auto order = g.topologicalOrder();
    if (!order)
        return;
    for (std::size_t pos : *order) {
        Node& n = g.nodes[pos];
        const bool leaf = n.op.kind == OpKind::Input || n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant;
        // A later output of a multi-output op: the rules give output 0's shape.
        if (leaf || n.op.attrs.intOr("onnx_output", 0) > 0 || resolvedDims(n.shape, bindings))
            continue;
        std::vector<Shape> shapes;
        std::vector<const Node*> inputNodes;
        for (NodeId id : n.inputs) {
            const Node* in = g.find(id);
            if (!in)
                return;
            shapes.push_back(in->shape);
            inputNodes.push_back(in);
        }
        if (auto inferred = inferShape(n.op, shapes, inputNodes); inferred && resolvedDims(*inferred, bindings))
            n.shape = *inferred;
    }
}

Diagnostic PlanSubgraphRunner::inBody(const Diagnostic& d) const
{
    const std::string where = d.nodeName.empty() ? std::string{} : "node '" + d.nodeName + "': ";
    return fail("in its " + m_sub.attribute + ", " + where + d.message);
}

std::optional<Diagnostic> PlanSubgraphRunner::compileFor(const std::vector<HostTensor>& inputs)
{
    std::vector<std::pair<Dims, DType>> signature;
    for (const HostTensor& t : inputs)
        signature.emplace_back(t.dims(), t.dtype());
    if (m_plan && signature == m_signature)
        return std::nullopt;
    // The importer adds a subgraph's Input nodes first: its own inputs, then the enclosing values it reads.
    Graph g = *m_sub.graph;
    std::map<NodeId, std::size_t> given;
    for (Node& n : g.nodes)
        if (n.op.kind == OpKind::Input) {
            const std::size_t i = given.size();
            if (i >= inputs.size())
                return fail("its " + m_sub.attribute + " has more inputs than the " + std::to_string(inputs.size())
                            + " given");
            n.shape = Shape::of(inputs[i].dims(), inputs[i].dtype());
            given[n.id] = i;
        }
    if (given.size() != inputs.size())
        return fail("its " + m_sub.attribute + " takes " + std::to_string(given.size()) + " inputs, "
                    + std::to_string(inputs.size()) + " were given");
    bindStatedShapes(g, {});
    auto plan = m_compile(g);
    if (!plan)
        return inBody(plan.error());
    if (auto r = (*plan)->uploadParameters(); !r)
        return inBody(r.error());
    m_feed.clear();
    for (const PlanInput& p : (*plan)->inputs())
        m_feed.push_back(given.at(p.node));
    m_plan = std::move(*plan);
    m_signature = std::move(signature);
    return std::nullopt;
}

Result<std::vector<HostTensor>> PlanSubgraphRunner::run(const std::vector<HostTensor>& inputs)
{
    if (auto e = compileFor(inputs))
        return *e;
    std::vector<HostTensor> fed;
    for (std::size_t i : m_feed)
        fed.push_back(inputs[i]);
    if (auto r = m_plan->setInputs(fed); !r)
        return inBody(r.error());
    if (auto r = m_plan->run(nullptr); !r)
        return inBody(r.error());
    auto out = m_plan->readOutputs();
    if (!out)
        return inBody(out.error());
    return out;
}

} // namespace costscope
