// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device.h"
#include "analysis/io_profile.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace costscope {

// What fusing saves, before − after for each IO counter (cost-model.md §5). Positive means fusion helps.
struct FusionBenefit {
    std::int64_t launchesSaved = 0;
    std::int64_t syncPointsSaved = 0;
    std::int64_t hostReadbackBytesSaved = 0; // from host_output_bytes
    std::int64_t deviceTrafficBytesSaved = 0;

    static FusionBenefit between(const IoProfile& before, const IoProfile& after);
    friend bool operator==(const FusionBenefit&, const FusionBenefit&) = default;
};

enum class FusionTarget { Metal, Mlx, Cuda, Rocm, Wgpu, Tpu, Cpu };

// RLX's IoFusionGate constants for one target.
struct IoFusionGate {
    double dispatchNs = 0;
    double roundtripNs = 0;
    double memoryBw = 0;
    double hostReadbackBw = 0;
    bool unifiedMemory = false;
    double hostThunkPenaltyNs = 0;
    double minGainNs = 0;

    double score(const FusionBenefit& b) const;
    bool shouldFuse(const FusionBenefit& b) const { return score(b) >= minGainNs; }
};

const std::array<FusionTarget, 7>& fusionTargets();
std::string_view fusionTargetName(FusionTarget t);
IoFusionGate ioFusionGate(FusionTarget t);
// Metal→Metal; Mlx, Ane→Mlx; Cuda→Cuda; Rocm→Rocm; the wgpu class→Wgpu; Tpu→Tpu; Cpu→Cpu.
// OneApi and Hexagon have no gate in RLX: nullopt.
std::optional<FusionTarget> fusionTargetFor(Device d);

} // namespace costscope
