// SPDX-License-Identifier: MIT
#include "analysis/top_nodes.h"

#include <algorithm>
#include <map>

namespace costscope {

TopNodes topNodes(const GraphCost& cost, const std::vector<std::optional<double>>& measuredNs, std::size_t n,
                  TopRanking by)
{
    const auto measuredAt = [&](std::size_t i) { return i < measuredNs.size() ? measuredNs[i] : std::nullopt; };
    TopNodes top;
    double measuredTotal = 0;
    bool anyMeasured = false;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < cost.nodes.size(); ++i) {
        const NodeCost& c = cost.nodes[i];
        if (!c.skipped)
            top.predictedTotalNs += c.totalNs;
        if (const auto m = measuredAt(i)) {
            measuredTotal += *m;
            anyMeasured = true;
        }
        const bool ranked = by == TopRanking::Measured ? measuredAt(i).value_or(0) > 0 : !c.skipped && c.totalNs > 0;
        if (ranked)
            order.push_back(i);
    }
    if (anyMeasured)
        top.measuredTotalNs = measuredTotal;
    const auto key = [&](std::size_t i) {
        return by == TopRanking::Measured ? measuredAt(i).value_or(0) : cost.nodes[i].totalNs;
    };
    const std::size_t k = std::min(n, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::size_t a, std::size_t b) { return key(a) != key(b) ? key(a) > key(b) : a < b; });
    order.resize(k);
    const double rankedTotal = by == TopRanking::Measured ? measuredTotal : top.predictedTotalNs;
    double cumulative = 0;
    for (std::size_t i : order) {
        TopNode t;
        t.index = i;
        t.id = cost.nodes[i].id;
        t.predictedNs = cost.nodes[i].skipped ? 0 : cost.nodes[i].totalNs;
        t.predictedShare = top.predictedTotalNs > 0 ? t.predictedNs / top.predictedTotalNs : 0;
        t.measuredNs = measuredAt(i);
        if (t.measuredNs && measuredTotal > 0)
            t.measuredShare = *t.measuredNs / measuredTotal;
        cumulative += key(i);
        t.cumulativeShare = rankedTotal > 0 ? cumulative / rankedTotal : 0;
        top.nodes.push_back(t);
    }
    return top;
}

std::vector<OpClassShare> opClassShares(const Graph& g, const GraphCost& cost)
{
    std::map<OpClass, OpClassShare> byClass;
    double total = 0;
    for (std::size_t i = 0; i < cost.nodes.size() && i < g.nodes.size(); ++i) {
        const NodeCost& c = cost.nodes[i];
        if (c.skipped || !(c.totalNs > 0))
            continue;
        OpClassShare& s = byClass[g.nodes[i].op.info().opClass];
        s.opClass = g.nodes[i].op.info().opClass;
        ++s.nodes;
        s.predictedNs += c.totalNs;
        total += c.totalNs;
    }
    std::vector<OpClassShare> out;
    for (const auto& [cls, s] : byClass)
        out.push_back(s);
    std::stable_sort(out.begin(), out.end(),
                     [](const OpClassShare& a, const OpClassShare& b) { return a.predictedNs > b.predictedNs; });
    double cumulative = 0;
    for (OpClassShare& s : out) {
        s.share = total > 0 ? s.predictedNs / total : 0;
        cumulative += s.share;
        s.cumulativeShare = cumulative;
    }
    return out;
}

} // namespace costscope
