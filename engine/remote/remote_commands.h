// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "backend.h"
#include "remote/remote_cli.h"

#include <string>
#include <vector>

namespace costscope {

// The use cases on a remote host that the CLI and the GUI share. Each checks the remote version on the way
// (COSTSCOPE_VERSION or newer).

// `costscope-cli run FILE ARGS --json` on the remote, the graph copied into its cache once. The JSON is as a local
// run writes it (its "file" is the local path); exitCode is 4 when the run's check failed.
Result<RemoteOutput> runGraphRemotely(RemoteCli& remote, const std::string& graphFile,
                                      const std::vector<std::string>& runArgs);

// A remote device: named "host/cpu", "host/cuda:0" beside the local ones.
struct RemoteDevice {
    std::string id;
    DeviceInfo info;
};
Result<std::vector<RemoteDevice>> remoteDevices(RemoteCli& remote);
std::string remoteDeviceId(const std::string& host, const std::string& backend, DeviceIndex index);

// Calibrates a remote device and returns its profile, named `name`, for the caller to keep locally (the remote
// costscope-cli keeps a copy under the same name, as every calibration does).
Result<DeviceProfile> calibrateRemotely(RemoteCli& remote, const std::string& backend, DeviceIndex device, bool quick,
                                        const std::string& name);
// The default name of a remote calibration: "<host>/calibrated-<backend>".
std::string remoteProfileName(const std::string& host, const std::string& backend);

} // namespace costscope
