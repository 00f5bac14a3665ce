// SPDX-License-Identifier: MIT
#include "jobs/device_costs.h"
#include "analysis/top_nodes.h"
#include <algorithm>

namespace costscope {

std::shared_ptr<const GraphCost> DeviceCosts::find(const std::string& device) const
{
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (devices[i] == device)
            return costs[i];
    return nullptr;
}

namespace {
// The costed devices' indices, totals and tags, and which of them `version` ranks.
struct Costed {
    std::vector<std::size_t> index;
    std::vector<double> totals;
    std::vector<Calibration> tags;
};
Costed costed(const DeviceCosts& c)
{
    Costed out;
    for (std::size_t i = 0; i < c.costs.size(); ++i)
        if (c.costs[i]) {
            out.index.push_back(i);
            out.totals.push_back(c.costs[i]->totalNs);
            out.tags.push_back(c.costs[i]->calibration);
        }
    return out;
}
} // namespace

std::optional<std::size_t> DeviceCosts::pick(RlxVersion version) const
{
    const Costed c = costed(*this);
    const auto best = pickByRule(c.totals, c.tags, version).pick;
    return best ? std::optional<std::size_t>(c.index[*best]) : std::nullopt;
}

std::string DeviceCosts::leftOut(std::size_t index, RlxVersion version) const
{
    const Costed c = costed(*this);
    const std::vector<bool> ranked = rankedByPick(c.tags, version);
    for (std::size_t k = 0; k < c.index.size(); ++k)
        if (c.index[k] == index && !ranked[k])
            return leftOutReason(c.tags[k], version);
    return {};
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
    for (const TopNode& t : topNodes(cost, {}, n).nodes)
        order.push_back(t.index);
    return order;
}

} // namespace costscope
