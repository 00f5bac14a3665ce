// SPDX-License-Identifier: MIT
#pragma once
// This machine's devices as candidates of the pick (issue 24): every GPU by its id, name and PCI id, with the profile
// its estimate is made under, so that two cards, different or identical but calibrated apart, are told apart.
#include "analysis/device.h"
#include "analysis/device_profile.h"
#include "analysis/profile_library.h"
#include "backend.h"
#include "ir/diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace costscope {

struct DeviceCandidate {
    DeviceInfo info;
    std::string id;            // "cuda:0"
    Device kind = Device::Cpu; // deviceOfBackend: the kind whose profiles describe the backend's devices
    DeviceProfile profile;
    std::string profileOrigin; // "calibrated", "datasheet" or "RLX parity"

    std::string label() const; // "NVIDIA H100 80GB HBM3, PCI 0000:3b:00.0" (no PCI part where it is unknown)
};

// Every device of the backends, in their order.
std::vector<DeviceInfo> devicesOf(const std::vector<const Backend*>& backends);

// `spec` "all": every device that is not the CPU (the local GPUs); else a comma list of ids ("cuda:0,local/cuda:1",
// "cpu:0"), each once. An error names `what`, the id and the devices there are; a remote id ("host/cuda:0") is one.
Result<std::vector<DeviceInfo>> selectLocalDevices(const std::vector<DeviceInfo>& devices, std::string_view spec,
                                                   std::string_view what);

// The device's profile, first found: its own calibrated profile (calibrate --device all's deviceProfileName), the
// backend's "calibrated-<backend>" where the backend has only this device (then it can be no other's), the datasheet
// preset whose model the device's name contains (datasheetFor), the `paritySet` profile of its kind.
DeviceCandidate deviceCandidate(const DeviceInfo& device, int devicesOfBackend, const ProfileLibrary& library,
                                const std::string& paritySet);
// deviceCandidate for each of `devices`, the count per backend taken from `all` (every device of this machine).
std::vector<DeviceCandidate> deviceCandidates(const std::vector<DeviceInfo>& devices,
                                              const std::vector<DeviceInfo>& all, const ProfileLibrary& library,
                                              const std::string& paritySet);

} // namespace costscope
