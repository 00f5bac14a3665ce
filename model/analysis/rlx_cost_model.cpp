// SPDX-License-Identifier: MIT
#include "analysis/rlx_cost_model.h"

#include "analysis/io_bytes.h"

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

NodeCost RlxCostModel::nodeCost(const Graph& g, const Node& n, const DeviceProfile& p, const Bindings& b) const
{
    NodeCost c;
    c.id = n.id;
    if (isLeaf(n.op.kind))
        return c;
    const Node* first = n.inputs.empty() ? nullptr : g.find(n.inputs.front());
    auto outElements = n.shape.elements(b);
    auto skip = [&](const Shape& s) {
        c.skipped = true;
        c.note = unboundNote(s, b);
        return c;
    };
    switch (n.op.kind) {
    case OpKind::MatMul:
    case OpKind::FusedMatMulBiasAct: {
        if (!outElements)
            return skip(n.shape);
        auto inElements = first ? first->shape.elements(b) : std::optional<std::uint64_t>(0);
        if (!inElements)
            return skip(first->shape);
        const std::uint64_t nDim = n.shape.rank() ? static_cast<std::uint64_t>(*n.shape.dims.back().resolve(b)) : 1;
        const std::uint64_t m = nDim ? *outElements / nDim : 0;
        const std::uint64_t k = m ? *inElements / m : 0;
        c.flops = 2.0 * dbl(m) * dbl(k) * dbl(nDim);
        c.computeNs = c.flops / (p.rlxSgemmGflops(static_cast<std::int64_t>(m), static_cast<std::int64_t>(k),
                                                  static_cast<std::int64_t>(nDim))
                                 + 1);
        break;
    }
    case OpKind::Attention: {
        if (!first)
            break;
        auto qElements = first->shape.elements(b);
        if (!qElements)
            return skip(first->shape);
        const auto& q = first->shape;
        const std::uint64_t seq = q.rank() >= 2 ? static_cast<std::uint64_t>(*q.dims[q.rank() - 2].resolve(b)) : 1;
        const auto heads = static_cast<std::uint64_t>(std::max<std::int64_t>(n.op.attrs.intOr("num_heads", 1), 0));
        const auto headDim = static_cast<std::uint64_t>(std::max<std::int64_t>(n.op.attrs.intOr("head_dim", 1), 0));
        const auto seqHeads = checkedMul(seq, heads);
        const auto denom = seqHeads ? checkedMul(*seqHeads, headDim) : std::nullopt;
        const std::uint64_t batch = denom && *denom ? *qElements / *denom : 0;
        c.flops = dbl(batch) * dbl(heads) * dbl(seq) * dbl(seq) * dbl(headDim) * 2;
        c.computeNs = c.flops / (p.rlxSgemmGflops(static_cast<std::int64_t>(seq), static_cast<std::int64_t>(headDim),
                                                  static_cast<std::int64_t>(seq))
                                 + 1);
        break;
    }
    default:
        if (!outElements)
            return skip(n.shape);
        // RLX counts 4 bytes per element here whatever the dtype (parity).
        c.memoryNs = dbl(*outElements) * 4 / std::max(p.memoryBw, 1.0);
        if (n.op.kind == OpKind::Unknown)
            c.note = "unknown op: costed as memory-bound";
    }
    c.dispatchNs = p.dispatchNs;
    c.totalNs = c.computeNs + c.memoryNs + c.dispatchNs;
    return c;
}

RlxEstimate RlxCostModel::estimateWithIo(const Graph& g, const DeviceProfile& p, const IoProfile& io,
                                         const Bindings& b) const
{
    RlxEstimate e;
    e.cost.model = name();
    e.cost.profile = p.name;
    e.cost.device = p.device;
    e.cost.io = io;
    auto& nodes = e.cost.nodes;
    const std::size_t count = g.nodes.size();
    std::vector<double> traffic(count, 0), outputs(count, 0), syncs(count, 0), launches(count, 0);
    for (std::size_t i = 0; i < count; ++i) {
        const Node& n = g.nodes[i];
        if (p.rlxFallback) {
            NodeCost c;
            c.id = n.id;
            if (n.op.kind != OpKind::Input && n.op.kind != OpKind::Param) {
                c.computeNs = 2000;
                c.note = "RLX discrete-GPU fallback: 2000 ns per node";
            }
            nodes.push_back(c);
        } else {
            nodes.push_back(nodeCost(g, n, p, b));
        }
        if (nodes.back().skipped)
            e.cost.skipped.push_back(n.id);
        if (n.op.info().rlxMetadata)
            continue;
        launches[i] = 1;
        nodes[i].bytes = nodeTrafficBytes(g, n, b);
        traffic[i] = dbl(nodes[i].bytes);
        syncs[i] = isRlxHostSync(n.op) ? 1 : 0;
        outputs[i] = g.isOutput(n.id) ? dbl(tensorBytes(n.shape, b)) : 0;
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

GraphCost RlxCostModel::estimate(const Graph& g, const DeviceProfile& p, const Bindings& b) const
{
    return estimateWithIo(g, p, ioProfile(g, b), b).cost;
}

double rlxEstimateWithIo(const Graph& g, const DeviceProfile& p, const IoProfile& io, const Bindings& b)
{
    return RlxCostModel().estimateWithIo(g, p, io, b).cost.totalNs;
}

double rlxEstimate(const Graph& g, const DeviceProfile& p, const Bindings& b)
{
    return rlxEstimateWithIo(g, p, ioProfile(g, b), b);
}

} // namespace costscope
