// SPDX-License-Identifier: MIT
#include "jobs/device_costs.h"
#include <algorithm>

namespace costscope {

std::shared_ptr<const GraphCost> DeviceCosts::find(const std::string& device) const
{
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (devices[i] == device)
            return costs[i];
    return nullptr;
}

std::optional<std::size_t> DeviceCosts::pick() const
{
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < costs.size(); ++i)
        if (costs[i] && (!best || costs[i]->totalNs < costs[*best]->totalNs))
            best = i;
    return best;
}

DeviceCosts computeDeviceCosts(const Graph& g, const CostProvider& provider, const std::string& model,
                               const std::vector<std::string>& devices, const Bindings& bindings)
{
    DeviceCosts out;
    out.model = model;
    out.bindings = bindings;
    out.devices = devices;
    out.costs.reserve(devices.size());
    for (const std::string& device : devices)
        out.costs.push_back(provider(g, CostRequest{model, device, bindings}));
    return out;
}

std::vector<std::size_t> costliestNodes(const GraphCost& cost, std::size_t n)
{
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < cost.nodes.size(); ++i)
        if (!cost.nodes[i].skipped && cost.nodes[i].totalNs > 0)
            order.push_back(i);
    const std::size_t k = std::min(n, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::size_t a, std::size_t b) {
                          if (cost.nodes[a].totalNs != cost.nodes[b].totalNs)
                              return cost.nodes[a].totalNs > cost.nodes[b].totalNs;
                          return a < b;
                      });
    order.resize(k);
    return order;
}

} // namespace costscope
