// SPDX-License-Identifier: MIT
#include "analysis/fusion_gate.h"

#include <algorithm>
#include <cstdlib>

namespace costscope {

namespace {
std::int64_t diff(std::uint64_t before, std::uint64_t after)
{
    return static_cast<std::int64_t>(before) - static_cast<std::int64_t>(after);
}
} // namespace

FusionBenefit FusionBenefit::between(const IoProfile& before, const IoProfile& after)
{
    return {diff(before.kernelLaunches, after.kernelLaunches), diff(before.syncPoints, after.syncPoints),
            diff(before.hostOutputBytes, after.hostOutputBytes),
            diff(before.deviceTrafficBytes, after.deviceTrafficBytes)};
}

double IoFusionGate::score(const FusionBenefit& b) const
{
    const double rb = unifiedMemory ? 0 : hostReadbackBw;
    double s = static_cast<double>(b.launchesSaved) * dispatchNs + static_cast<double>(b.syncPointsSaved) * roundtripNs
        + static_cast<double>(b.deviceTrafficBytesSaved) / std::max(memoryBw, 1.0)
        + static_cast<double>(b.hostReadbackBytesSaved) / std::max(rb, 1.0);
    if (b.syncPointsSaved < 0)
        s -= static_cast<double>(-b.syncPointsSaved) * hostThunkPenaltyNs;
    return s;
}

const std::array<FusionTarget, 7>& fusionTargets()
{
    static const std::array<FusionTarget, 7> all = {FusionTarget::Metal, FusionTarget::Mlx,  FusionTarget::Cuda,
                                                    FusionTarget::Rocm,  FusionTarget::Wgpu, FusionTarget::Tpu,
                                                    FusionTarget::Cpu};
    return all;
}

std::string_view fusionTargetName(FusionTarget t)
{
    switch (t) {
    case FusionTarget::Metal: return "Metal";
    case FusionTarget::Mlx: return "Mlx";
    case FusionTarget::Cuda: return "Cuda";
    case FusionTarget::Rocm: return "Rocm";
    case FusionTarget::Wgpu: return "Wgpu";
    case FusionTarget::Tpu: return "Tpu";
    case FusionTarget::Cpu: return "Cpu";
    }
    return "Cpu";
}

IoFusionGate ioFusionGate(FusionTarget t)
{
    switch (t) {
    case FusionTarget::Metal:
    case FusionTarget::Mlx: return {500, 5000, 200, 200, true, 2'000'000, 1000};
    case FusionTarget::Cuda:
    case FusionTarget::Rocm: return {2000, 20000, 800, 50, false, 15'000'000, 5000};
    case FusionTarget::Wgpu:
    case FusionTarget::Tpu: return {3000, 30000, 100, 40, false, 25'000'000, 10000};
    case FusionTarget::Cpu: return {50, 0, 50, 50, true, 0, 0};
    }
    return {};
}

std::optional<FusionTarget> fusionTargetFor(Device d)
{
    switch (d) {
    case Device::Metal: return FusionTarget::Metal;
    case Device::Mlx:
    case Device::Ane: return FusionTarget::Mlx;
    case Device::Cuda: return FusionTarget::Cuda;
    case Device::Rocm: return FusionTarget::Rocm;
    case Device::Gpu:
    case Device::Vulkan:
    case Device::WebGpu:
    case Device::DirectX:
    case Device::OpenGl: return FusionTarget::Wgpu;
    case Device::Tpu: return FusionTarget::Tpu;
    case Device::Cpu: return FusionTarget::Cpu;
    case Device::OneApi:
    case Device::Hexagon: return std::nullopt;
    }
    return std::nullopt;
}

} // namespace costscope
