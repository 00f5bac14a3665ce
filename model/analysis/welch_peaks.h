// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "analysis/welch_graphs.h"
#include "ir/diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// RLX's Welch-peaks fusion decision and strategy costs (cost-model.md §6), evaluated under a profile set
// (rlxProfileSet("rlx-linux") for parity). The fused path always uses the fast params (2 segments).
// A device the set has no profile for is costed with the discrete-GPU fallback.

// The host estimate's GPU adjustment factor: 1 on Cpu (and on GPU-class devices RLX gives no coefficients:
// Tpu, OneApi, Hexagon); else ×(1 + ln(b/512)·mid) when b ≥ 512, ×(1 + log2(b/2048)·large) when b > 2048.
double welchGpuAdjustment(Device d, std::int64_t batch);
// io_cost of the host profile under the set's Cpu profile, times the GPU adjustment for `d`.
double welchHostEstimate(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch, const WelchParams& p);
// fused_estimate(b, compute_scale).
double welchFusedEstimate(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch, std::int64_t nFft,
                          std::int64_t k, double computeScale);

struct WelchGate {
    Device device = Device::Cpu;
    std::int64_t batch = 0, nFft = 0, k = 0;
    double scoreNs = 0;
    double minGainNs = 0;
    std::int64_t readbackSavedBytes = 0;
    std::int64_t syncPointsSaved = 0;
    bool shouldFuseIo = false;
    bool computeFloorOk = true;
    bool shouldFuse = false;
};
// Devices without an RLX fusion target (OneApi, Hexagon) are judged by the Wgpu gate, the strictest one.
WelchGate welchGate(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch, std::int64_t nFft = 256,
                    std::int64_t k = 16);

enum class WelchStrategy { Ultra, Fast, Rlx, Learned };
std::string_view welchStrategyName(WelchStrategy s); // "ultra", "fast", "rlx", "learned"

// RLX's learned fusion gates: whether a trained set exists and how many of its gates are active. The spec gives
// no default set, and its parity picks (rlx on Gpu and Cuda at 8192) hold only without one: off by default.
struct LearnedGates {
    bool available = false;
    int active = 0;
    int total = 0;
    bool operator==(const LearnedGates&) const = default;
};
// "ACTIVE/TOTAL" ("1/8": available, 1 of 8 active; 0 <= ACTIVE <= TOTAL, TOTAL >= 1), or "off" / "" for none.
Result<LearnedGates> parseLearnedGates(std::string_view text);
std::string learnedGatesText(const LearnedGates& g); // "off" or "1/8"

// Strategy costs in ns; +infinity where a strategy is not open to the device (cost-model.md §6).
struct WelchStrategyCosts {
    double ultraNs = 0, fastNs = 0, rlxNs = 0, learnedNs = 0;
    WelchStrategy pick = WelchStrategy::Ultra; // the lowest; ties go to the earlier of ultra, fast, rlx, learned
};
WelchStrategyCosts welchStrategyCosts(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch,
                                      std::int64_t nFft = 256, std::int64_t k = 16, LearnedGates learned = {});

} // namespace costscope
