// SPDX-License-Identifier: MIT
#include "analysis/cost_model.h"
#include "analysis/costscope_cost_model.h"
#include "analysis/rlx_cost_model.h"

namespace costscope {

std::unique_ptr<CostModel> makeCostModel(const std::string& name)
{
    if (name == "rlx")
        return std::make_unique<RlxCostModel>();
    if (name == "costscope")
        return std::make_unique<CostscopeCostModel>();
    return nullptr;
}

} // namespace costscope
