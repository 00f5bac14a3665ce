// SPDX-License-Identifier: MIT
#include "cli/remote_commands.h"

#include "analysis/profile_io.h"
#include "calibration/save_calibration.h"
#include "cli/args.h"
#include "cli/run_output.h"
#include "remote/remote_commands.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace costscope::cli {

namespace {
int failed(const char* command, const Diagnostic& error)
{
    std::cerr << "costscope-cli " << command << " --remote: " << error.message << '\n';
    return kBadInput;
}
} // namespace

int runOnRemote(RemoteCliOptions options, const std::string& file, const std::vector<std::string>& runArgs,
                const std::vector<LocalFileOption>& fileOptions, bool json)
{
    RemoteCli remote(std::move(options));
    auto out = runGraphRemotely(remote, file, runArgs, fileOptions);
    if (!out)
        return failed("run", out.error());
    if (json) {
        std::cout << out->out;
    } else {
        const auto j = nlohmann::ordered_json::parse(out->out);
        printCheckLine(j);
        printRunText(j);
    }
    return out->exitCode == kCheckFailed ? kCheckFailed : kOk;
}

int devicesOnRemote(RemoteCliOptions options, bool json)
{
    RemoteCli remote(std::move(options));
    auto devices = remoteDevices(remote);
    if (!devices)
        return failed("devices", devices.error());
    auto list = nlohmann::ordered_json::array();
    for (const RemoteDevice& d : *devices) {
        if (json)
            list.push_back({{"id", d.id},
                            {"backend", d.info.backend},
                            {"index", d.info.index},
                            {"name", d.info.name},
                            {"memory_bytes", d.info.memoryBytes},
                            {"compute_units", d.info.computeUnits}});
        else
            std::cout << d.id << "  " << d.info.name << "  " << d.info.computeUnits << " compute units  "
                      << d.info.memoryBytes / (1024 * 1024) << " MiB\n";
    }
    if (json)
        std::cout << nlohmann::ordered_json{{"host", remote.options().target.host}, {"devices", list}}.dump(2) << '\n';
    return kOk;
}

int evaluateOnRemote(RemoteCliOptions options, const std::vector<std::string>& evaluateArgs)
{
    RemoteCli remote(std::move(options));
    auto out = evaluateRemotely(remote, evaluateArgs);
    if (!out)
        return failed("evaluate", out.error());
    std::cout << out->out;
    return kOk;
}

int calibrateOnRemote(RemoteCliOptions options, const std::string& backend, DeviceIndex device, bool quick,
                      const std::string& name, bool json, const std::vector<std::string>& predictorArgs)
{
    RemoteCli remote(std::move(options));
    const std::string profileName = name.empty() ? remoteProfileName(remote.options().target.host, backend) : name;
    auto profile = calibrateRemotely(remote, backend, device, quick, profileName, predictorArgs);
    if (!profile)
        return failed("calibrate", profile.error());
    auto saved = saveCalibratedProfile(*profile);
    if (!saved)
        return failed("calibrate", saved.error());
    if (json) {
        auto j = nlohmann::ordered_json::parse(profileToJsonText(saved->profile));
        j["saved_to"] = saved->path;
        std::cout << j.dump(2) << '\n';
    } else {
        std::cout << "saved profile '" << profileName << "' (measured on " << remote.options().target.host << ") to "
                  << saved->path << '\n';
    }
    return kOk;
}

} // namespace costscope::cli
