// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_policy.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace costscope {

// What is known of the devices for one graph: which exist (for estimation: estimableDevices(); for running:
// the backends the engine reports) and, per device, the first op of the graph it cannot run.
struct DeviceContext {
    std::vector<Device> available;
    // "Fft (node 3)" for the first unsupported op, or nullopt when the device runs the whole graph.
    std::function<std::optional<std::string>(Device)> firstUnsupportedOp;
};

// A device's estimate in ns and the calibration tag of the model that gave it.
struct DeviceEstimate {
    // Implicit from a plain estimate: a model with no tag of its own is an ArchDefault one.
    DeviceEstimate(double estimateNs, Calibration tag = Calibration::ArchDefault) : ns(estimateNs), calibration(tag) {}
    double ns = 0;
    Calibration calibration = Calibration::ArchDefault;
};
// A device's estimate, or nullopt when there is no cost model for it.
using DeviceEstimator = std::function<std::optional<DeviceEstimate>(Device)>;

// Available, supports the graph and allowed by the policy, sorted as sortCandidates() does.
std::vector<Device> viableDevices(const DeviceContext& ctx, const DevicePolicy& policy);

// RLX's pick_best_device: the device with the lowest estimate among those `version` ranks (rankedByPick: under
// 0.2.16 not the Uncalibrated ones, unless all are); starts from Cpu at +infinity, the first one wins ties.
Device pickBestDevice(const std::vector<std::pair<Device, DeviceEstimate>>& estimates,
                      RlxVersion version = kDefaultRlxVersion);
// With two or more candidates that have a model: the pick by estimate; with one: that one; with none: the
// first candidate (candidates come sorted). nullopt when there are no candidates.
std::optional<Device> fastestDevice(const std::vector<Device>& candidates, const DeviceEstimator& estimate,
                                    RlxVersion version = kDefaultRlxVersion);

struct DeviceReportEntry {
    Device device = Device::Cpu;
    bool available = false;
    bool supportsGraph = false;
    bool recommended = false;
    std::optional<double> estimateNs;
    std::optional<Calibration> calibration; // the tag of the model behind estimateNs
    // The first blocker: "not available", "unsupported op: ...", "denied by policy", "not in allow-list";
    // empty for a viable device.
    std::string blocker;
    // A viable device the cost-model pick of the policy's RLX version does not rank: leftOutReason(); else empty.
    std::string leftOut;
};

// One entry per device of estimableDevices() plus any other available one, in RLX priority order.
std::vector<DeviceReportEntry> deviceReport(const DeviceContext& ctx, const DevicePolicy& policy,
                                            const DeviceEstimator& estimate, std::optional<Device> recommended);

// Benchmark pick: each viable device runs max(runs, 1) times (nullopt from a run: it failed to compile or
// run, and is left out); ranked by median time, fastest first. The winner is remembered until the policy
// changes.
using BenchmarkRun = std::function<std::optional<double>(Device)>;
class BenchmarkPicker {
public:
    static std::vector<std::pair<Device, double>> rank(const std::vector<Device>& viable, int runs,
                                                       const BenchmarkRun& run);
    std::optional<Device> pick(const DevicePolicy& policy, const std::vector<Device>& viable, const BenchmarkRun& run);
    // The ranking the remembered winner came from (median ns per device that ran, fastest first); empty before
    // the first pick.
    const std::vector<std::pair<Device, double>>& ranking() const { return m_ranking; }

private:
    std::optional<DevicePolicy> m_policy;
    std::optional<Device> m_winner;
    std::vector<std::pair<Device, double>> m_ranking;
};

struct DeviceResolution {
    Device device = Device::Cpu;
    std::string reason;             // "forced by RLX_FORCE_DEVICE", "hint", "RLX_DEVICE", "chain", "cost model"...
    std::vector<std::string> notes; // why earlier steps were passed over
};

// RLX_FORCE_DEVICE overrides all; else RLX_DEVICE_CHAIN takes its first viable device (or fails listing the
// chain and the viable devices); else hint → RLX_DEVICE, each if viable → the policy's pick (benchmark when
// the policy says so and a runner is given, else the cost model under the policy's RLX version).
Result<DeviceResolution> resolveDevice(std::optional<Device> hint, const Environment& env, const DeviceContext& ctx,
                                       const DevicePolicy& policy, const DeviceEstimator& estimate,
                                       BenchmarkPicker* picker = nullptr, const BenchmarkRun& run = {});

// Tries each device in order until one succeeds; every failure goes to onError. nullopt when all failed.
using DeviceAttempt = std::function<std::optional<std::string>(Device)>; // error text, or nullopt on success
std::optional<Device> runWithFallback(const std::vector<Device>& order, const DeviceAttempt& attempt,
                                      const std::function<void(Device, const std::string&)>& onError);

} // namespace costscope
