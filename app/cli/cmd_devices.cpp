// SPDX-License-Identifier: MIT
#include "backend.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/remote_commands.h"
#include "cli/remote_options.h"
#include "cpu/cpu_backend.h"
#include "device_ref.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace costscope::cli {

int cmdDevices(const std::vector<std::string>& argv)
{
    std::string err;
    auto remote = takeRemoteOptions(argv, &err);
    auto args = remote ? Args::parse(remote->rest, {"json"}, {}, &err) : std::nullopt;
    if (!args || !args->positional().empty()) {
        std::cerr << "usage: costscope-cli devices [--json] " << kRemoteUsage << (err.empty() ? "" : "\n" + err)
                  << '\n';
        return kUsage;
    }
    const bool json = args->flag("json");
    if (remote->remote)
        return devicesOnRemote(*remote->remote, json);
    auto list = nlohmann::ordered_json::array();
    auto backends = nlohmann::ordered_json::array();
    for (const BackendStatus& status : backendStatus()) {
        backends.push_back({{"name", status.name}, {"available", status.available}, {"detail", status.detail}});
        if (!status.available) {
            if (!json)
                std::cout << status.name << ": unavailable: " << status.detail << '\n';
            continue;
        }
        const auto devices = makeBackend(status.name)->devices();
        if (devices.empty() && !json)
            std::cout << status.name << ": no devices (its plugin loaded, but it found no device or driver)\n";
        for (const DeviceInfo& d : devices) {
            if (!json) {
                std::cout << d.backend << ':' << d.index << "  " << d.name << "  " << d.computeUnits
                          << " compute units  " << d.memoryBytes / (1024 * 1024) << " MiB";
                if (d.clockMHz > 0)
                    std::cout << "  " << d.clockMHz << " MHz";
                if (d.memoryClockMHz > 0)
                    std::cout << " (memory " << d.memoryClockMHz << " MHz)";
                if (!d.pciBusId.empty())
                    std::cout << "  pci " << d.pciBusId;
                std::cout << '\n';
                continue;
            }
            list.push_back({{"id", localDeviceId(d)},
                            {"backend", d.backend},
                            {"index", d.index},
                            {"name", d.name},
                            {"memory_bytes", d.memoryBytes},
                            {"compute_units", d.computeUnits},
                            {"clock_mhz", d.clockMHz},
                            {"memory_clock_mhz", d.memoryClockMHz},
                            {"pci_bus_id", d.pciBusId}});
        }
    }
    if (json)
        std::cout << nlohmann::ordered_json{{"devices", list}, {"backends", backends},
                                            {"cpu_features", cpuBackendFeatures()}}
                         .dump(2)
                  << '\n';
    else
        std::cout << "cpu backend: " << cpuBackendFeatures() << '\n';
    return kOk;
}

} // namespace costscope::cli
