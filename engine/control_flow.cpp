// SPDX-License-Identifier: MIT
#include "control_flow.h"

#include "ir/shape_inference.h"
#include "shape_operands.h"
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

std::vector<std::int64_t> intsAttr(const Node& node, const char* key, std::size_t count)
{
    auto v = node.op.attrs.getInts(key).value_or(std::vector<std::int64_t>{});
    v.resize(count, 0);
    return v;
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

// Opset 8's Scan: a batch axis first and an optional sequence_lens input (slot 0); opset 9 dropped both. Graphs
// imported before the importer marked it are told by opset 8's own attribute or by an omitted input 0 (opset 9's
// inputs are all required).
bool isBatchedScan(const OpInputs& in)
{
    return in.node.op.attrs.intOr("onnx_scan_batched", 0) != 0 || in.node.op.attrs.has("directions")
           || (in.slots() > 0 && !in.at(0));
}

// The first `rows` entries of t along axis 0.
HostTensor leadingRows(const HostTensor& t, std::int64_t rows)
{
    Dims dims = t.dims();
    const std::size_t rowBytes = dims[0] ? t.byteSize() / static_cast<std::size_t>(dims[0]) : 0;
    dims[0] = rows;
    HostTensor out(dims, t.dtype());
    if (out.byteSize())
        std::memcpy(out.bytes(), t.bytes(), static_cast<std::size_t>(rows) * rowBytes);
    return out;
}

// t with axis 0 zero-padded to `rows` entries.
HostTensor paddedRows(const HostTensor& t, std::int64_t rows)
{
    Dims dims = t.dims();
    dims[0] = rows;
    HostTensor out(dims, t.dtype());
    if (t.byteSize())
        std::memcpy(out.bytes(), t.bytes(), t.byteSize());
    return out;
}

// Opset 8's Scan: opset 9's scan over axis 0 of each batch entry (sequence i of length sequence_lens[i], its scan
// outputs zero-padded to the longest), the results stacked along the batch axis.
Result<ControlFlowOutputs> runBatchedScan(const OpInputs& in, const Subgraph& sub, const MakeSubgraphRunner& makeRunner)
{
    const auto scanCount = static_cast<std::size_t>(in.node.op.attrs.intOr("num_scan_inputs", 0));
    const std::size_t formal = in.slots();
    if (scanCount == 0 || scanCount + 1 > formal)
        return fail("Scan (opset 8)'s num_scan_inputs must be between 1 and its " + std::to_string(formal - 1)
                    + " inputs after sequence_lens");
    std::vector<const HostTensor*> states, scanned;
    for (std::size_t slot = 1; slot < formal; ++slot) {
        const HostTensor* v = in.at(slot);
        if (!v || v->rank() < (slot < formal - scanCount ? 1u : 2u))
            return fail("Scan (opset 8)'s input " + std::to_string(slot) + " is missing or has no batch axis"
                        + (slot < formal - scanCount ? "" : " and sequence axis"));
        (slot < formal - scanCount ? states : scanned).push_back(v);
    }
    const std::int64_t batch = scanned.front()->dim(0), longest = scanned.front()->dim(1);
    for (const HostTensor* v : states)
        if (v->dim(0) != batch)
            return fail("Scan (opset 8)'s states and scan inputs differ in batch size (" + describe(*v) + " and "
                        + describe(*scanned.front()) + ")");
    for (const HostTensor* v : scanned)
        if (v->dim(0) != batch || v->dim(1) != longest)
            return fail("Scan (opset 8)'s scan inputs differ in batch or sequence length (" + describe(*v) + " and "
                        + describe(*scanned.front()) + ")");
    const HostTensor* lengths = in.at(0);
    if (lengths && static_cast<std::int64_t>(lengths->elements()) != batch)
        return fail("Scan (opset 8)'s sequence_lens has " + std::to_string(lengths->elements())
                    + " entries for a batch of " + std::to_string(batch));
    auto body = makeRunner(sub);
    std::vector<std::vector<HostTensor>> perOutput;
    for (std::int64_t b = 0; b < batch; ++b) {
        const std::int64_t length = lengths ? lengths->valueAsInt(static_cast<std::uint64_t>(b)) : longest;
        if (length < 1 || length > longest)
            return fail("Scan (opset 8)'s sequence_lens[" + std::to_string(b) + "] is " + std::to_string(length)
                        + ", outside 1.." + std::to_string(longest));
        ScanPass p;
        std::vector<HostTensor> sequences;
        for (const HostTensor* v : states)
            p.states.push_back(sliceAlong(*v, 0, b));
        for (const HostTensor* v : scanned)
            sequences.push_back(leadingRows(sliceAlong(*v, 0, b), length));
        for (const HostTensor& v : sequences)
            p.scanned.push_back(&v);
        p.inAxes.assign(scanCount, 0);
        p.inDirections = intsAttr(in.node, "directions", scanCount);
        auto result = scanOnce(p, *body, in, sub);
        if (!result)
            return result.error();
        perOutput.resize(result->values.size());
        for (std::size_t k = 0; k < result->values.size(); ++k)
            perOutput[k].push_back(k < states.size() ? std::move(result->values[k])
                                                     : paddedRows(result->values[k], longest));
    }
    ControlFlowOutputs result;
    for (const auto& entries : perOutput) {
        auto stacked = stackAlong(entries, 0, "Scan (opset 8)'s output");
        if (!stacked)
            return stacked.error();
        result.values.push_back(std::move(*stacked));
    }
    return result;
}

Result<ControlFlowOutputs> runScan(const OpInputs& in, const MakeSubgraphRunner& makeRunner)
{
    const Subgraph* sub = subgraph(in.node, "body");
    if (!sub)
        return fail("Scan has no body");
    if (isBatchedScan(in))
        return runBatchedScan(in, *sub, makeRunner);
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

std::size_t bindStatedShapes(Graph& g, const Bindings& bindings)
{
    auto order = g.topologicalOrder();
    if (!order)
        return 0;
    std::size_t untold = 0;
    for (std::size_t pos : *order) {
        Node& n = g.nodes[pos];
        const bool leaf = n.op.kind == OpKind::Input || n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant;
        // A later output of a multi-output op: the rules give output 0's shape.
        if (leaf || n.op.attrs.intOr("onnx_output", 0) > 0)
            continue;
        std::vector<Shape> shapes;
        std::vector<const Node*> inputNodes;
        for (NodeId id : n.inputs) {
            const Node* in = g.find(id);
            if (!in)
                return untold;
            shapes.push_back(in->shape);
            inputNodes.push_back(in);
        }
        if (auto inferred = inferShape(n.op, shapes, inputNodes); inferred && resolvedDims(*inferred, bindings))
            n.shape = *inferred;
        else
            ++untold;
    }
    return untold;
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
    // A plan with folded operands holds for their values only (shape_operands.h).
    std::vector<std::vector<std::byte>> folded;
    if (m_folds)
        for (const HostTensor& t : inputs)
            if (isFoldedOperand(t))
                folded.emplace_back(t.bytes(), t.bytes() + t.byteSize());
    if (m_plan && signature == m_signature && folded == m_folded)
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
    const std::size_t untold = bindStatedShapes(g, {});
    const bool canFold = std::any_of(inputs.begin(), inputs.end(), isFoldedOperand);
    auto compileFolded = [&] {
        Graph f = withOperandsFolded(g, inputs);
        bindStatedShapes(f, {});
        return m_compile(f);
    };
    // Folded where that tells shapes the plain graph leaves untold (a device plan sizes its tensors from them), or
    // where the plain graph does not compile.
    if (!m_folds && canFold && m_sizedByStatedShapes && untold > 0) {
        Graph f = withOperandsFolded(g, inputs);
        m_folds = bindStatedShapes(f, {}) < untold;
    }
    auto plan = m_folds ? compileFolded() : m_compile(g);
    if (!plan && !m_folds && canFold) {
        auto withFolds = compileFolded();
        if (!withFolds)
            return inBody(plan.error()); // the plain graph's error says why
        plan = std::move(withFolds);
        m_folds = true;
    }
    if (!plan)
        return inBody(plan.error());
    if (m_folds && folded.empty())
        for (const HostTensor& t : inputs)
            if (isFoldedOperand(t))
                folded.emplace_back(t.bytes(), t.bytes() + t.byteSize());
    if (auto r = (*plan)->uploadParameters(); !r)
        return inBody(r.error());
    m_feed.clear();
    for (const PlanInput& p : (*plan)->inputs())
        m_feed.push_back(given.at(p.node));
    m_plan = std::move(*plan);
    m_signature = std::move(signature);
    m_folded = std::move(folded);
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
