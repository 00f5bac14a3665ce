// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device.h"
#include "analysis/device_profile.h"
#include "cli/args.h"
#include "ir/shape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace costscope::cli {

// Option parsing shared by the analysis commands. Each returns nullopt and fills *error on bad input.
std::optional<std::int64_t> positiveInt(const Args& a, const std::string& name, std::int64_t dflt, std::string* error);
std::optional<Device> deviceOption(const std::string& text, std::string* error);
// --bind NAME=VALUE (repeatable).
std::optional<Bindings> bindingsOption(const Args& a, std::string* error);
// --profiles rlx-linux (default) or rlx-apple.
std::optional<std::vector<DeviceProfile>> profileSetOption(const Args& a, std::string* setName, std::string* error);
// "3,4,5" → ids.
std::optional<std::vector<std::int64_t>> idList(const std::string& text, std::string* error);

} // namespace costscope::cli
