// SPDX-License-Identifier: MIT
#pragma once
// How a user names one device (issue 23): "cuda:0" or "local/cuda:0" on this machine, "host/cuda:0" on a remote
// host, the ids `costscope-cli devices` and the remote listing print.
#include "backend.h"
#include "ir/diagnostic.h"

#include <string>
#include <string_view>

namespace costscope {

struct DeviceRef {
    std::string host;    // empty: this machine ("local/" is spelled out or left off)
    std::string backend; // "cuda"
    DeviceIndex index = 0;

    bool local() const { return host.empty(); }
};

// "[HOST/]BACKEND:N" with a known backend (isKnownBackend) and N ≥ 0, or "[HOST/]cpu" (the one CPU, as the remote
// listing names it); "local/" means this machine. The error names
// `what` (the option) and the text, and says what is expected.
Result<DeviceRef> parseDeviceRef(std::string_view text, std::string_view what);

std::string localDeviceId(const DeviceInfo& d); // "cuda:0"

} // namespace costscope
