// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <optional>
#include <string>

namespace costscope {

// Why `inputs` cannot be set on a plan that takes `want`: the count, or the first input whose dims or dtype differ
// (`input` is then its position). nullopt when they fit. The message is the same whichever backend's plan asks.
struct InputMismatch {
    std::optional<std::size_t> input;
    std::string message;
};
std::optional<InputMismatch> checkPlanInputs(const std::vector<PlanInput>& want, const std::vector<HostTensor>& inputs);

} // namespace costscope
