// SPDX-License-Identifier: MIT
#include "analysis/rlx_profiles.h"

#include "analysis/device_policy.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <thread>

namespace costscope {

namespace {
constexpr std::string_view kRlxSource = "RLX built-in defaults (cost-model.md §4)";

std::string lowerName(Device d)
{
    std::string s(deviceName(d));
    for (char& c : s)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
}

DeviceProfile row(Device d, double sgemm, double dispatch, double roundtrip, double bw, std::string description)
{
    DeviceProfile p;
    p.device = d;
    p.sgemmGflops = sgemm;
    p.dispatchNs = dispatch;
    p.roundtripNs = roundtrip;
    p.memoryBw = bw;
    p.description = std::move(description);
    p.source = std::string(kRlxSource);
    return p;
}

int hostWorkers()
{
    const auto env = envSetting(processEnvironment(), "WORKERS");
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return env ? rlxCpuWorkers(cores, std::string_view(*env)) : rlxCpuWorkers(cores, std::nullopt);
}

DeviceProfile cpuRow(bool apple)
{
    // The sgemm rate is the better of the SIMD path and BLAS: 32 vs 200 generic, 72 vs 1000 on Apple.
    DeviceProfile p = apple ? row(Device::Cpu, std::max(72.0, 1000.0), 500, 5000, 50, "RLX CPU, Apple aarch64")
                            : row(Device::Cpu, std::max(32.0, 200.0), 300, 3000, 30, "RLX CPU, generic (x86)");
    p.numThreads = hostWorkers() + 1;
    return p;
}

DeviceProfile profileFor(Device d, bool apple)
{
    switch (d) {
    case Device::Cpu: return cpuRow(apple);
    case Device::Cuda: return row(d, 12000, 3000, 35000, 900, "RLX CUDA, uncalibrated");
    case Device::Rocm: return row(d, 10000, 3000, 40000, 800, "RLX ROCm, uncalibrated");
    case Device::Gpu:
    case Device::Vulkan:
    case Device::WebGpu:
    case Device::DirectX:
    case Device::OpenGl: return row(d, 2500, 5000, 80000, 120, "RLX wgpu class, uncalibrated");
    default: break;
    }
    DeviceProfile p = rlxDiscreteGpuFallback();
    p.device = d;
    return p;
}
} // namespace

DeviceProfile rlxDiscreteGpuFallback()
{
    DeviceProfile p
        = row(Device::Gpu, 800, 2000, 20000, 800, "RLX discrete-GPU fallback (no model without calibration)");
    p.hostReadbackBw = 50;
    p.unifiedMemory = false;
    p.rlxFallback = true;
    return p;
}

std::vector<std::string_view> rlxProfileSetNames()
{
    return {"rlx-linux", "rlx-apple"};
}

std::vector<DeviceProfile> rlxProfileSet(std::string_view set)
{
    if (set != "rlx-linux" && set != "rlx-apple")
        return {};
    const bool apple = set == "rlx-apple";
    std::vector<DeviceProfile> out;
    for (Device d : estimableDevices()) {
        DeviceProfile p = profileFor(d, apple);
        p.name = std::string(set) + "/" + lowerName(d);
        out.push_back(std::move(p));
    }
    return out;
}

const DeviceProfile* findProfile(const std::vector<DeviceProfile>& set, Device d)
{
    auto it = std::find_if(set.begin(), set.end(), [d](const DeviceProfile& p) { return p.device == d; });
    return it == set.end() ? nullptr : &*it;
}

int rlxCpuWorkers(int cores, std::optional<std::string_view> rlxWorkersEnv)
{
    if (rlxWorkersEnv) {
        int n = 0;
        auto [ptr, ec] = std::from_chars(rlxWorkersEnv->data(), rlxWorkersEnv->data() + rlxWorkersEnv->size(), n);
        if (ec == std::errc{} && ptr == rlxWorkersEnv->data() + rlxWorkersEnv->size() && n > 0)
            return n;
    }
    return std::clamp(cores / 2, 1, 15);
}

} // namespace costscope
