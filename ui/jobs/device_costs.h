// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/cost_job.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// One graph's cost under one model, bindings and precision on every device. Computed once per graph + model +
// bindings + precision,
// so a device switch only picks another entry and recolours (no cost model runs on the GUI thread).
struct DeviceCosts {
    std::string model;
    Bindings bindings;
    std::string precision; // AnalysisSettings::precision the graph was re-typed to ("": its own dtypes)
    std::vector<std::string> devices;
    std::vector<std::shared_ptr<const GraphCost>> costs; // parallel to devices; null where the device has no profile

    std::shared_ptr<const GraphCost> find(const std::string& device) const;
    // The device with the lowest total among those costed that `version` ranks (pick_rule.h), or nullopt when none
    // was costed.
    std::optional<std::size_t> pick(RlxVersion version = kDefaultRlxVersion) const;
    // Why `version` leaves the costed device at `index` out of the ranking; empty when it ranks it.
    std::string leftOut(std::size_t index, RlxVersion version) const;
    bool matches(const std::string& m, const Bindings& b, const std::string& p) const
    {
        return model == m && bindings == b && precision == p;
    }
};

// Runs the provider for every device (call on a worker thread; the provider is thread-safe).
DeviceCosts computeDeviceCosts(const Graph& g, const CostProvider& provider, const std::string& model,
                               const std::vector<std::string>& devices, const Bindings& bindings);

// Positions of the n costliest nodes, costliest first (ties: graph order); skipped nodes are left out.
std::vector<std::size_t> costliestNodes(const GraphCost& cost, std::size_t n);

} // namespace costscope
