// SPDX-License-Identifier: MIT
#include "plan_inputs.h"

namespace costscope {

std::optional<InputMismatch> checkPlanInputs(const std::vector<PlanInput>& want, const std::vector<HostTensor>& inputs)
{
    if (inputs.size() != want.size())
        return InputMismatch{std::nullopt, "the graph has " + std::to_string(want.size()) + " inputs, "
                                               + std::to_string(inputs.size()) + " were given"};
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].dims() != want[i].dims || inputs[i].dtype() != want[i].dtype)
            return InputMismatch{i, "input '" + want[i].name + "' must be "
                                        + Shape::of(want[i].dims, want[i].dtype).toString() + ", got "
                                        + describe(inputs[i])};
    return std::nullopt;
}

} // namespace costscope
