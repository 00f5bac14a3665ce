// SPDX-License-Identifier: MIT
#include "analysis/reuse_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace costscope {

namespace {

bool isLeaf(OpKind k)
{
    return k == OpKind::Input || k == OpKind::Param || k == OpKind::Constant;
}

} // namespace

std::vector<double> inputReuseBytes(const Graph& g, const std::vector<OpWork>& work, const Bindings& bindings)
{
    const std::size_t n = g.nodes.size();
    std::vector<double> out(n, 0.0);
    if (work.size() != n)
        return out;
    std::vector<std::size_t> order(n);
    if (auto topo = g.topologicalOrder())
        order = std::move(*topo);
    else
        std::iota(order.begin(), order.end(), std::size_t{0});
    std::unordered_map<NodeId, std::size_t> pos;
    for (std::size_t i = 0; i < n; ++i)
        pos.emplace(g.nodes[i].id, i);
    // A view is its viewed tensor (through chains of views).
    std::vector<std::size_t> root(n);
    for (std::size_t i = 0; i < n; ++i)
        root[i] = i;
    for (std::size_t i : order) {
        const Node& node = g.nodes[i];
        if (work[i].free && !isLeaf(node.op.kind) && !node.inputs.empty())
            if (auto at = pos.find(node.inputs[0]); at != pos.end())
                root[i] = root[at->second];
    }
    auto tensorBytes = [&](std::size_t i) {
        const auto e = g.nodes[i].shape.elements(bindings);
        return e ? double(*e) * double(byteSize(g.nodes[i].shape.dtype)) : 0.0;
    };
    // Bytes touched before each kernel in one pass, and where each tensor was last touched (the clock after the
    // kernel that touched it).
    std::vector<double> touchedAfter(n, -std::numeric_limits<double>::infinity());
    double clock = 0;
    std::vector<std::size_t> kernels;
    for (std::size_t i : order)
        if (!work[i].free && !work[i].skipped)
            kernels.push_back(i);
    // First pass: the clock at the end of a pass, and each leaf's last touch in it (what the next pass sees).
    // After kernel i runs: it has touched its inputs (what they view) and its output.
    auto touch = [&](std::size_t i) {
        clock += double(work[i].bytes);
        for (NodeId in : g.nodes[i].inputs)
            if (auto at = pos.find(in); at != pos.end())
                touchedAfter[root[at->second]] = clock;
        touchedAfter[i] = clock;
    };
    for (std::size_t i : kernels)
        touch(i);
    const double pass = clock;
    // Second pass, the one measured: leaves last touched in the previous pass are `pass` behind.
    for (double& t : touchedAfter)
        t -= pass; // untouched ones stay at -infinity
    clock = 0;
    for (std::size_t i : kernels) {
        double weighted = 0, bytes = 0;
        for (NodeId in : g.nodes[i].inputs) {
            auto at = pos.find(in);
            if (at == pos.end())
                continue;
            const std::size_t r = root[at->second];
            const double b = tensorBytes(at->second);
            const double last = touchedAfter[r];
            // A tensor never touched before (a leaf read nowhere else) was last read a whole pass ago.
            const double distance = std::isfinite(last) ? clock - last : pass;
            weighted += b * std::max(distance, 0.0);
            bytes += b;
        }
        out[i] = bytes > 0 ? weighted / bytes : 0.0;
        touch(i);
    }
    return out;
}

} // namespace costscope
