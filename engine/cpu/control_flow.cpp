// SPDX-License-Identifier: MIT
// ONNX control flow on the host: If runs one branch, Loop its body up to a trip count while its condition holds,
// Scan its body once per slice of its scan inputs. A body is a Costscope graph (Node::subgraphs) run as a CpuPlan
// of its own, compiled once per signature of its inputs. The importer gives a node per ONNX output; each computes
// the whole op and keeps its own output.
#include "cpu/cpu_plan.h"
#include "cpu/onnx_named_kernels.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace costscope::cpu {

namespace {
// A subgraph run again and again: recompiled only when its inputs' dims or dtypes change.
class BodyRunner {
public:
    BodyRunner(ThreadPool& pool, const Subgraph& sub) : m_pool(std::shared_ptr<ThreadPool>{}, &pool), m_sub(sub) {}

    Result<std::vector<HostTensor>> run(const std::vector<HostTensor>& inputs)
    {
        if (auto e = compileFor(inputs))
            return *e;
        if (auto r = m_plan->setInputs(inputs); !r)
            return inBody(r.error());
        if (auto r = m_plan->run(nullptr); !r)
            return inBody(r.error());
        auto out = m_plan->readOutputs();
        if (!out)
            return inBody(out.error());
        return out;
    }

private:
    Diagnostic inBody(const Diagnostic& d) const
    {
        const std::string where = d.nodeName.empty() ? std::string{} : "node '" + d.nodeName + "': ";
        return fail("in its " + m_sub.attribute + ", " + where + d.message);
    }

    std::optional<Diagnostic> compileFor(const std::vector<HostTensor>& inputs)
    {
        std::vector<std::pair<Dims, DType>> signature;
        for (const HostTensor& t : inputs)
            signature.emplace_back(t.dims(), t.dtype());
        if (m_plan && signature == m_signature)
            return std::nullopt;
        const Graph& g = *m_sub.graph;
        auto order = g.topologicalOrder();
        if (!order)
            return inBody(order.error());
        std::vector<CpuPlan::Step> steps;
        for (std::size_t pos : *order) {
            auto kernel = kernelForNode(g.nodes[pos]);
            if (!kernel)
                return inBody(Diagnostic::atNode(Diagnostic::Severity::Error, g.nodes[pos].id,
                                                 g.nodes[pos].displayName(), kernel.error().message));
            CpuPlan::Step step{pos, *kernel, {}};
            for (NodeId id : g.nodes[pos].inputs)
                step.inputs.push_back(*g.indexOf(id));
            steps.push_back(std::move(step));
        }
        // The importer adds a subgraph's Input nodes first: its own inputs, then the enclosing values it reads.
        std::vector<PlanInput> planInputs;
        for (const Node& n : g.nodes)
            if (n.op.kind == OpKind::Input) {
                const std::size_t i = planInputs.size();
                if (i >= inputs.size())
                    break;
                planInputs.push_back({n.id, n.displayName(), inputs[i].dims(), inputs[i].dtype()});
            }
        if (planInputs.size() != inputs.size())
            return fail("its " + m_sub.attribute + " takes " + std::to_string(planInputs.size()) + " inputs, "
                        + std::to_string(inputs.size()) + " were given");
        m_plan = std::make_unique<CpuPlan>(m_pool, g, Bindings{}, std::move(steps), std::move(planInputs));
        if (auto r = m_plan->uploadParameters(); !r)
            return inBody(r.error());
        m_signature = std::move(signature);
        return std::nullopt;
    }

    std::shared_ptr<ThreadPool> m_pool; // the backend's, not owned
    const Subgraph& m_sub;
    std::unique_ptr<CpuPlan> m_plan;
    std::vector<std::pair<Dims, DType>> m_signature;
};

const Subgraph* subgraph(const KernelContext& ctx, const std::string& attribute)
{
    for (const Subgraph& s : ctx.node.subgraphs)
        if (s.attribute == attribute && s.graph)
            return &s;
    return nullptr;
}

// The ONNX input `slot` of the op, leaving out the enclosing values the importer appended.
const HostTensor* formalInput(const KernelContext& ctx, const Inputs& in, std::size_t slot)
{
    const auto formal = static_cast<std::size_t>(ctx.attrs().intOr("onnx_formal_inputs", std::int64_t(in.size())));
    const Inputs own(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(std::min(formal, in.size())));
    return onnxInput(ctx, own, slot);
}

// The subgraph's inputs: `own`, then the enclosing values it reads.
std::vector<HostTensor> bodyInputs(const Subgraph& sub, const Inputs& in, std::vector<HostTensor> own)
{
    for (std::size_t position : sub.outerInputs)
        own.push_back(*in[position]);
    return own;
}

// Number of ONNX inputs of the op (formal, omitted optional ones included).
std::size_t formalSlots(const KernelContext& ctx, const Inputs& in)
{
    if (auto slots = ctx.attrs().getInts("onnx_input_slots"); slots && !slots->empty())
        return static_cast<std::size_t>(slots->back() + 1);
    return static_cast<std::size_t>(ctx.attrs().intOr("onnx_formal_inputs", std::int64_t(in.size())));
}

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

// A scan output of no iteration: length 0 along the new axis, the rest of the node's stated shape where known.
HostTensor emptyStack(const KernelContext& ctx)
{
    Dims dims{0};
    if (auto stated = statedDims(ctx); stated && !stated->empty()) {
        dims = *stated;
        dims[0] = 0;
    }
    return HostTensor(dims, ctx.node.shape.dtype);
}

std::size_t requestedOutput(const KernelContext& ctx)
{
    return static_cast<std::size_t>(onnxOutput(ctx));
}

// Loops without a trip count stop when their condition turns false; this bounds one that never does.
constexpr std::int64_t kMaxOpenIterations = 10'000'000;
} // namespace

KernelStatus runIf(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor* cond = formalInput(ctx, in, 0);
    if (!cond || cond->elements() == 0)
        return fail("If needs its condition (a one-element tensor)");
    const char* branch = truthy(*cond) ? "then_branch" : "else_branch";
    const Subgraph* sub = subgraph(ctx, branch);
    if (!sub)
        return fail(std::string("If has no ") + branch);
    BodyRunner body(ctx.pool, *sub);
    auto outputs = body.run(bodyInputs(*sub, in, {}));
    if (!outputs)
        return outputs.error();
    const std::size_t k = requestedOutput(ctx);
    if (k >= outputs->size())
        return fail(std::string("If's ") + branch + " has " + std::to_string(outputs->size()) + " outputs, not "
                    + std::to_string(k + 1));
    out = std::move((*outputs)[k]);
    return ok();
}

KernelStatus runLoop(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const Subgraph* sub = subgraph(ctx, "body");
    if (!sub)
        return fail("Loop has no body");
    const HostTensor* maxTrips = formalInput(ctx, in, 0);
    const HostTensor* initialCond = formalInput(ctx, in, 1);
    if (!maxTrips && !initialCond)
        return fail("Loop has neither a trip count (input 0) nor a condition (input 1): it would never end");
    const std::int64_t trips = maxTrips ? maxTrips->valueAsInt(0) : kMaxOpenIterations;
    bool cond = initialCond ? truthy(*initialCond) : true;
    std::vector<HostTensor> carried;
    for (std::size_t slot = 2; slot < formalSlots(ctx, in); ++slot) {
        const HostTensor* v = formalInput(ctx, in, slot);
        if (!v)
            return fail("Loop's loop-carried input " + std::to_string(slot) + " is missing");
        carried.push_back(*v);
    }
    BodyRunner body(ctx.pool, *sub);
    std::vector<std::vector<HostTensor>> scans;
    std::int64_t i = 0;
    for (; i < trips && cond; ++i) {
        std::vector<HostTensor> own{HostTensor::fromBytes({}, DType::I64, &i, sizeof i),
                                    HostTensor::fromBytes({}, DType::Bool, &cond, 1)};
        own.insert(own.end(), carried.begin(), carried.end());
        auto outputs = body.run(bodyInputs(*sub, in, std::move(own)));
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
                    + " iterations without its condition turning "
                      "false; stopped");
    const std::size_t k = requestedOutput(ctx);
    if (k < carried.size()) {
        out = std::move(carried[k]);
        return ok();
    }
    const std::size_t s = k - carried.size();
    if (i == 0) {
        out = emptyStack(ctx);
        return ok();
    }
    if (s >= scans.size())
        return fail("Loop's body has no scan output " + std::to_string(s) + " (for the op's output " + std::to_string(k)
                    + ")");
    auto stacked = stackAlong(scans[s], 0, "Loop's scan output");
    if (!stacked)
        return stacked.error();
    out = std::move(*stacked);
    return ok();
}

KernelStatus runScan(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const Subgraph* sub = subgraph(ctx, "body");
    if (!sub)
        return fail("Scan has no body");
    // Opset 8's Scan has a batch axis and an optional sequence_lens input first; opset 9 dropped both.
    if (ctx.attrs().has("directions") || (formalSlots(ctx, in) > 0 && !formalInput(ctx, in, 0)))
        return fail("Scan of opset 8 (a batch axis and sequence_lens) is not supported by the CPU backend; "
                    "re-export at opset 9 or newer");
    const auto scanCount = static_cast<std::size_t>(ctx.attrs().intOr("num_scan_inputs", 0));
    const std::size_t formal = formalSlots(ctx, in);
    if (scanCount == 0 || scanCount > formal)
        return fail("Scan's num_scan_inputs must be between 1 and its " + std::to_string(formal) + " inputs");
    const std::size_t stateCount = formal - scanCount;
    std::vector<HostTensor> states;
    std::vector<const HostTensor*> scanned;
    for (std::size_t slot = 0; slot < formal; ++slot) {
        const HostTensor* v = formalInput(ctx, in, slot);
        if (!v)
            return fail("Scan's input " + std::to_string(slot) + " is missing");
        if (slot < stateCount)
            states.push_back(*v);
        else
            scanned.push_back(v);
    }
    auto listAttr = [&](const char* key, std::size_t count) {
        auto v = ctx.attrs().getInts(key).value_or(std::vector<std::int64_t>{});
        v.resize(count, 0);
        return v;
    };
    const auto inAxes = listAttr("scan_input_axes", scanCount);
    const auto inDirections = listAttr("scan_input_directions", scanCount);
    std::vector<std::size_t> axes;
    std::int64_t length = -1;
    for (std::size_t s = 0; s < scanCount; ++s) {
        const auto rank = static_cast<std::int64_t>(scanned[s]->rank());
        const std::int64_t axis = inAxes[s] < 0 ? inAxes[s] + rank : inAxes[s];
        if (axis < 0 || axis >= rank)
            return fail("Scan input axis " + std::to_string(inAxes[s]) + " is out of range for "
                        + describe(*scanned[s]));
        axes.push_back(static_cast<std::size_t>(axis));
        const std::int64_t n = scanned[s]->dim(static_cast<std::size_t>(axis));
        if (length >= 0 && n != length)
            return fail("Scan's scan inputs differ in length (" + std::to_string(length) + " and " + std::to_string(n)
                        + ")");
        length = n;
    }
    BodyRunner body(ctx.pool, *sub);
    std::vector<std::vector<HostTensor>> scans;
    for (std::int64_t t = 0; t < length; ++t) {
        std::vector<HostTensor> own = states;
        for (std::size_t s = 0; s < scanCount; ++s)
            own.push_back(sliceAlong(*scanned[s], axes[s], inDirections[s] ? length - 1 - t : t));
        auto outputs = body.run(bodyInputs(*sub, in, std::move(own)));
        if (!outputs)
            return outputs.error();
        if (outputs->size() < stateCount)
            return fail("Scan's body gives " + std::to_string(outputs->size()) + " outputs, fewer than its "
                        + std::to_string(stateCount) + " states");
        for (std::size_t c = 0; c < stateCount; ++c)
            states[c] = std::move((*outputs)[c]);
        scans.resize(outputs->size() - stateCount);
        for (std::size_t s = 0; s < scans.size(); ++s)
            scans[s].push_back(std::move((*outputs)[stateCount + s]));
    }
    const std::size_t k = requestedOutput(ctx);
    if (k < stateCount) {
        out = std::move(states[k]);
        return ok();
    }
    const std::size_t s = k - stateCount;
    if (length == 0) {
        out = emptyStack(ctx);
        return ok();
    }
    if (s >= scans.size())
        return fail("Scan's body has no scan output " + std::to_string(s));
    const auto outAxes = listAttr("scan_output_axes", scans.size());
    const auto outDirections = listAttr("scan_output_directions", scans.size());
    std::vector<HostTensor>& slices = scans[s];
    if (outDirections[s])
        std::reverse(slices.begin(), slices.end());
    const auto rank = static_cast<std::int64_t>(slices.front().rank()) + 1;
    const std::int64_t axis = outAxes[s] < 0 ? outAxes[s] + rank : outAxes[s];
    if (axis < 0 || axis >= rank)
        return fail("Scan output axis " + std::to_string(outAxes[s]) + " is out of range for rank "
                    + std::to_string(rank));
    auto stacked = stackAlong(slices, static_cast<std::size_t>(axis), "Scan's scan output");
    if (!stacked)
        return stacked.error();
    out = std::move(*stacked);
    return ok();
}

} // namespace costscope::cpu
