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

// A run option whose value is a local file (`--input X.pb`, `--reference OUT.pb`): copied into the remote cache like
// the graph, and passed to the remote run as the path of that copy.
struct LocalFileOption {
    std::string option; // "--input"
    std::string path;   // the local file
};

// `costscope-cli run FILE ARGS FILE-OPTIONS --json` on the remote, the graph and the files of `fileOptions` copied
// into its cache once (each by its content). The JSON is as a local run writes it (its "file" is the local path, a
// check's "reference" the local file); exitCode is 4 when the run's check failed.
Result<RemoteOutput> runGraphRemotely(RemoteCli& remote, const std::string& graphFile,
                                      const std::vector<std::string>& runArgs,
                                      const std::vector<LocalFileOption>& fileOptions = {});

// A remote device: named "host/cpu", "host/cuda:0" beside the local ones.
struct RemoteDevice {
    std::string id;
    DeviceInfo info;
};
Result<std::vector<RemoteDevice>> remoteDevices(RemoteCli& remote);
// A host and the devices its listing gave: what the GUI's Run panel offers beside this machine's devices.
struct RemoteHostDevices {
    RemoteCliOptions options; // without cancel or onProgress: each run sets its own
    std::vector<RemoteDevice> devices;
};
std::string remoteDeviceId(const std::string& host, const std::string& backend, DeviceIndex index);

// Calibrates a remote device and returns its profile, named `name`, for the caller to keep locally (the remote
// costscope-cli keeps a copy under the same name, as every calibration does).
// `predictorArgs` go to the remote calibrate as they are (--no-predictors, --predictor-budget S).
Result<DeviceProfile> calibrateRemotely(RemoteCli& remote, const std::string& backend, DeviceIndex device, bool quick,
                                        const std::string& name, const std::vector<std::string>& predictorArgs = {});
// `costscope-cli evaluate ARGS` on the remote (the zoo and the sampler are built there; the profile it is held to is
// the remote's copy of the one named, as calibrateRemotely leaves it). With --json among `args` the report gains
// "host"; the text report comes back as printed. `fileOptions` (--profile FILE) travel into the cache like a run's.
Result<RemoteOutput> evaluateRemotely(RemoteCli& remote, const std::vector<std::string>& args,
                                      const std::vector<LocalFileOption>& fileOptions = {});

// The default name of a remote calibration: "<host>/calibrated-<backend>".
std::string remoteProfileName(const std::string& host, const std::string& backend);

} // namespace costscope
