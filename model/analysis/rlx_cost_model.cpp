// SPDX-License-Identifier: MIT
#include "analysis/rlx_cost_model.h"

#include "analysis/fused_kernel.h"
#include "analysis/io_bytes.h"
#include "ir/fused_op.h"

#include <algorithm>
#include <numeric>

namespace costscope {

namespace {
double dbl(std::uint64_t v)
{
    return static_cast<double>(v);
}

bool isLeaf(OpKind k)
{
    return k == OpKind::Input || k == OpKind::Param || k == OpKind::Constant;
}

std::string unboundNote(const Shape& s, const Bindings& b)
{
    std::string names;
    for (const auto& sym : s.symbols())
        if (!b.count(sym))
            names += (names.empty() ? "" : ", ") + sym;
    return "unbound symbol: " + (names.empty() ? std::string("element count overflows") : names);
}

// Splits `term` over nodes by weight; returns what could not be placed (all of it when the weights sum to 0).
template <class Field>
double distribute(double term, const std::vector<double>& weights, std::vector<NodeCost>& nodes, Field field)
{
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    if (term == 0)
        return 0;
    if (total <= 0)
        return term;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (weights[i] > 0)
            nodes[i].*field += term * (weights[i] / total);
    return 0;
}
} // namespace

double rlxIoCost(const IoProfile& io, const DeviceProfile& p)
{
    return p.roundtripNs + dbl(io.kernelLaunches) * p.dispatchNs + dbl(io.syncPoints) * p.roundtripNs
        + dbl(io.deviceTrafficBytes) / std::max(p.memoryBw, 1.0)
        + dbl(io.hostReadbackBytes(p.unifiedMemory)) / std::max(p.readbackBw(), 1.0);
}

namespace {

RlxNodeWork nodeWork(const Node& n, const Node* first, std::optional<std::uint64_t> outElements,
                     std::optional<std::uint64_t> firstElements, const Bindings& b);

// The kernels a fused node stands for (RlxNodeWork::parts).
RlxNodeWork fusedWork(const Node& n, std::optional<std::uint64_t> outElements, const Bindings& b)
{
    using Kind = RlxNodeWork::Kind;
    RlxNodeWork w;
    w.id = n.id;
    w.fallbackNode = true;
    w.kind = Kind::Fused;
    auto kernel = fusedKernel(n.op);
    if (!kernel) {
        w.skipped = true;
        w.note = kernel.error().message;
        return w;
    }
    const Graph& members = kernel->members;
    for (const Node& m : members.nodes) {
        const Node* mFirst = m.inputs.empty() ? nullptr : members.find(m.inputs.front());
        RlxNodeWork part = nodeWork(m, mFirst, m.shape.elements(b), mFirst ? mFirst->shape.elements(b) : std::nullopt, b);
        if (part.skipped) {
            w.skipped = true;
            w.note = "fused member " + std::to_string(m.id) + ": " + part.note;
            return w;
        }
        if (part.kind == Kind::Gemm)
            w.parts.push_back(std::move(part));
        else if (part.kind == Kind::Fused) // a fused node fused again: its GEMMs stay GEMMs
            for (RlxNodeWork& inner : part.parts)
                if (inner.kind == Kind::Gemm)
                    w.parts.push_back(std::move(inner));
    }
    if (w.parts.empty()) {
        if (!outElements) {
            w.skipped = true;
            w.note = unboundNote(n.shape, b);
            return w;
        }
        RlxNodeWork chain;
        chain.kind = Kind::Elementwise;
        chain.outElements = *outElements;
        w.parts.push_back(chain);
    }
    for (const RlxNodeWork& part : w.parts)
        w.flops += part.flops;
    w.note = "fused " + kernel->form + ": one kernel";
    return w;
}

// node_cost's profile-independent part; `outElements` and `firstElements` are the node's and its first input's
// element counts (nullopt: unbound).
RlxNodeWork nodeWork(const Node& n, const Node* first, std::optional<std::uint64_t> outElements,
                     std::optional<std::uint64_t> firstElements, const Bindings& b)
{
    using Kind = RlxNodeWork::Kind;
    if (isFusedNode(n))
        return fusedWork(n, outElements, b);
    RlxNodeWork w;
    w.id = n.id;
    w.fallbackNode = n.op.kind != OpKind::Input && n.op.kind != OpKind::Param;
    if (isLeaf(n.op.kind))
        return w;
    auto skip = [&](const Shape& s) {
        w.skipped = true;
        w.note = unboundNote(s, b);
        return w;
    };
    switch (n.op.kind) {
    case OpKind::MatMul:
    case OpKind::FusedMatMulBiasAct: {
        if (!outElements)
            return skip(n.shape);
        auto inElements = first ? firstElements : std::optional<std::uint64_t>(0);
        if (!inElements)
            return skip(first->shape);
        const std::uint64_t nDim = n.shape.rank() ? static_cast<std::uint64_t>(*n.shape.dims.back().resolve(b)) : 1;
        const std::uint64_t m = nDim ? *outElements / nDim : 0;
        const std::uint64_t k = m ? *inElements / m : 0;
        w.kind = Kind::Gemm;
        w.flops = 2.0 * dbl(m) * dbl(k) * dbl(nDim);
        w.m = static_cast<std::int64_t>(m);
        w.k = static_cast<std::int64_t>(k);
        w.n = static_cast<std::int64_t>(nDim);
        return w;
    }
    case OpKind::Attention: {
        w.kind = Kind::DispatchOnly;
        if (!first)
            return w;
        if (!firstElements)
            return skip(first->shape);
        const auto& q = first->shape;
        const std::uint64_t seq = q.rank() >= 2 ? static_cast<std::uint64_t>(*q.dims[q.rank() - 2].resolve(b)) : 1;
        const auto heads = static_cast<std::uint64_t>(std::max<std::int64_t>(n.op.attrs.intOr("num_heads", 1), 0));
        const auto headDim = static_cast<std::uint64_t>(std::max<std::int64_t>(n.op.attrs.intOr("head_dim", 1), 0));
        const auto seqHeads = checkedMul(seq, heads);
        const auto denom = seqHeads ? checkedMul(*seqHeads, headDim) : std::nullopt;
        const std::uint64_t batch = denom && *denom ? *firstElements / *denom : 0;
        w.kind = Kind::Gemm;
        w.flops = dbl(batch) * dbl(heads) * dbl(seq) * dbl(seq) * dbl(headDim) * 2;
        w.m = static_cast<std::int64_t>(seq);
        w.k = static_cast<std::int64_t>(headDim);
        w.n = static_cast<std::int64_t>(seq);
        return w;
    }
    default:
        if (!outElements)
            return skip(n.shape);
        w.kind = Kind::Elementwise;
        w.outElements = *outElements;
        if (n.op.kind == OpKind::Unknown)
            w.note = "unknown op: costed as memory-bound";
        return w;
    }
}

NodeCost priceNode(const RlxNodeWork& w, const DeviceProfile& p)
{
    using Kind = RlxNodeWork::Kind;
    NodeCost c;
    c.id = w.id;
    if (w.skipped) {
        c.skipped = true;
        c.note = w.note;
        return c;
    }
    if (w.kind == Kind::Free)
        return c;
    const auto gemmNs = [&](const RlxNodeWork& g) { return g.flops / (p.rlxSgemmGflops(g.m, g.k, g.n) + 1); };
    // RLX counts 4 bytes per element here whatever the dtype (parity).
    const auto elementwiseNs = [&](const RlxNodeWork& e) { return dbl(e.outElements) * 4 / std::max(p.memoryBw, 1.0); };
    if (w.kind == Kind::Gemm) {
        c.flops = w.flops;
        c.computeNs = gemmNs(w);
    } else if (w.kind == Kind::Elementwise) {
        c.memoryNs = elementwiseNs(w);
        c.note = w.note;
    } else if (w.kind == Kind::Fused) {
        c.flops = w.flops;
        for (const RlxNodeWork& part : w.parts) {
            if (part.kind == Kind::Gemm)
                c.computeNs += gemmNs(part);
            else
                c.memoryNs += elementwiseNs(part);
        }
        c.note = w.note;
    }
    c.dispatchNs = p.dispatchNs;
    c.totalNs = c.computeNs + c.memoryNs + c.dispatchNs;
    return c;
}

} // namespace

NodeCost RlxCostModel::nodeCost(const Graph& g, const Node& n, const DeviceProfile& p, const Bindings& b) const
{
    const Node* first = n.inputs.empty() ? nullptr : g.find(n.inputs.front());
    return priceNode(nodeWork(n, first, n.shape.elements(b), first ? first->shape.elements(b) : std::nullopt, b), p);
}

RlxWork RlxCostModel::work(const Graph& g, const Bindings& b) const
{
    RlxWork w;
    const std::vector<std::optional<std::uint64_t>> elements = nodeElements(g, b);
    const std::vector<std::uint64_t> bytes = nodeBytes(g, elements);
    w.io = ioProfileOfBytes(g, bytes);
    w.nodes.reserve(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        const auto firstIndex = n.inputs.empty() ? std::nullopt : g.indexOf(n.inputs.front());
        const Node* first = firstIndex ? &g.nodes[*firstIndex] : nullptr;
        RlxNodeWork nw = nodeWork(n, first, elements[i], firstIndex ? elements[*firstIndex] : std::nullopt, b);
        if (!n.op.info().rlxMetadata) {
            nw.launches = true;
            nw.trafficBytes = nodeTrafficBytes(g, n, bytes);
            nw.hostSync = isRlxHostSync(n.op);
            nw.outputBytes = g.isOutput(n.id) ? bytes[i] : 0;
        }
        w.nodes.push_back(std::move(nw));
    }
    return w;
}

RlxEstimate RlxCostModel::price(const RlxWork& w, const DeviceProfile& p, const IoProfile& io) const
{
    RlxEstimate e;
    e.cost.model = name();
    e.cost.profile = p.name;
    e.cost.device = p.device;
    e.cost.calibration = p.calibration;
    e.cost.io = io;
    auto& nodes = e.cost.nodes;
    const std::size_t count = w.nodes.size();
    nodes.reserve(count);
    std::vector<double> traffic(count, 0), outputs(count, 0), syncs(count, 0), launches(count, 0);
    for (std::size_t i = 0; i < count; ++i) {
        const RlxNodeWork& nw = w.nodes[i];
        if (p.rlxFallback) {
            NodeCost c;
            c.id = nw.id;
            if (nw.fallbackNode) {
                c.computeNs = 2000;
                c.note = "RLX discrete-GPU fallback: 2000 ns per node";
            }
            nodes.push_back(std::move(c));
        } else {
            nodes.push_back(priceNode(nw, p));
        }
        if (nodes.back().skipped)
            e.cost.skipped.push_back(nw.id);
        if (!nw.launches)
            continue;
        launches[i] = 1;
        nodes[i].bytes = nw.trafficBytes;
        traffic[i] = dbl(nodes[i].bytes);
        syncs[i] = nw.hostSync ? 1 : 0;
        outputs[i] = dbl(nw.outputBytes);
    }
    for (const NodeCost& c : nodes)
        e.terms.nodesNs += c.computeNs + c.memoryNs + c.dispatchNs;

    RlxTerms& t = e.terms;
    const double rbw = std::max(p.readbackBw(), 1.0);
    t.roundtripNs = p.roundtripNs;
    t.trafficNs = dbl(io.deviceTrafficBytes) / std::max(p.memoryBw, 1.0);
    t.readbackNs = dbl(io.hostReadbackBytes(p.unifiedMemory)) / rbw;
    t.syncNs = dbl(io.syncPoints) * p.roundtripNs;
    t.dispatchNs = p.rlxFallback ? dbl(io.kernelLaunches) * p.dispatchNs : 0;
    const double hostPart = dbl(io.hostOutputBytes) / rbw;
    const double trafficQuarterPart = dbl(io.hostReadbackBytes(p.unifiedMemory) - io.hostOutputBytes) / rbw;

    double rest = t.roundtripNs;
    rest += distribute(t.trafficNs, traffic, nodes, &NodeCost::memoryNs);
    rest += distribute(hostPart, outputs, nodes, &NodeCost::readbackNs);
    rest += distribute(trafficQuarterPart, traffic, nodes, &NodeCost::readbackNs);
    rest += distribute(t.syncNs, syncs, nodes, &NodeCost::syncNs);
    rest += distribute(t.dispatchNs, launches, nodes, &NodeCost::dispatchNs);
    e.graphLevelNs = rest;

    double total = e.graphLevelNs;
    for (NodeCost& c : nodes) {
        c.totalNs = c.computeNs + c.memoryNs + c.dispatchNs + c.syncNs + c.readbackNs;
        total += c.totalNs;
    }
    e.cost.totalNs = total;
    return e;
}

RlxEstimate RlxCostModel::estimateWithIo(const Graph& g, const DeviceProfile& p, const IoProfile& io,
                                         const Bindings& b) const
{
    return price(work(g, b), p, io);
}

GraphCost RlxCostModel::estimate(const Graph& g, const DeviceProfile& p, const Bindings& b) const
{
    RlxWork w = work(g, b);
    return price(w, p, w.io).cost;
}

double rlxEstimateWithIo(const Graph& g, const DeviceProfile& p, const IoProfile& io, const Bindings& b)
{
    return RlxCostModel().estimateWithIo(g, p, io, b).cost.totalNs;
}

double rlxEstimate(const Graph& g, const DeviceProfile& p, const Bindings& b)
{
    return RlxCostModel().estimate(g, p, b).totalNs;
}

} // namespace costscope
