// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/cost_model.h"
#include "analysis/pick_rule.h"
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// What the toolbar asks the cost overlay for.
struct CostRequest {
    std::string model = "rlx"; // "rlx" or "costscope"
    std::string device = "Cpu";
    Bindings bindings;
    // Whose device-pick rule the pick among devices follows; costs do not depend on it.
    RlxVersion rlxVersion = kDefaultRlxVersion;
};

// Computes a graph's cost on a worker thread; must be thread-safe. Tests inject their own.
using CostProvider = std::function<std::shared_ptr<const GraphCost>(const Graph&, const CostRequest&)>;

// The one place where the GUI asks the analysis library for costs (makeCostModel + a device profile).
CostProvider makeCostProvider();
// The profile a toolbar device name stands for, by the one rule of usecases/profile_resolution.h.
std::optional<DeviceProfile> profileForDeviceName(const std::string& name);

QStringList costModelNames();
QStringList costDeviceNames();
// The same devices by where their numbers come from: calibrated on this machine (user profiles, RLX caches),
// calibrated on other hosts (user profiles named "<host>/<profile>"), datasheet presets, RLX device kinds. Groups
// with no device are left out.
struct DeviceGroup {
    QString title;
    QStringList names;
};
std::vector<DeviceGroup> costDeviceGroups();
// Reads the profile library again: after the GUI saved a profile (calibration, fit), so that it can be picked.
void reloadProfileLibrary();

} // namespace costscope
