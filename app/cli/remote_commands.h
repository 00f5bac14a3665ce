// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "remote/remote_cli.h"
#include "remote/remote_commands.h"

#include <string>
#include <vector>

namespace costscope::cli {

// The remote halves of run, devices and calibrate: thin callers of engine/remote/remote_commands.h. Every failure
// of the connection or the remote side exits 3 with the reason.
int runOnRemote(RemoteCliOptions options, const std::string& file, const std::vector<std::string>& runArgs,
                const std::vector<LocalFileOption>& fileOptions, bool json);
int devicesOnRemote(RemoteCliOptions options, bool json);
int evaluateOnRemote(RemoteCliOptions options, const std::vector<std::string>& evaluateArgs);
int calibrateOnRemote(RemoteCliOptions options, const std::string& backend, DeviceIndex device, bool quick,
                      const std::string& name, bool json, const std::vector<std::string>& predictorArgs = {});

} // namespace costscope::cli
