// SPDX-License-Identifier: MIT
#include "jobs/cost_job.h"
#include "analysis/device.h"

namespace costscope {

CostProvider makeCostProvider()
{
    return [](const Graph& g, const CostRequest& r) -> std::shared_ptr<const GraphCost> {
        const auto model = makeCostModel(r.model);
        const auto device = parseDevice(r.device);
        if (!model || !device)
            return nullptr;
        DeviceProfile profile;
        profile.name = r.device;
        profile.device = *device;
        return std::make_shared<const GraphCost>(model->estimate(g, profile, r.bindings));
    };
}

} // namespace costscope
