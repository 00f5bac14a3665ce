// SPDX-License-Identifier: MIT
#include "analysis/device.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace costscope {

namespace {
struct Spelling {
    std::string_view text; // lower case
    Device device;
};

constexpr std::array kSpellings = {
    Spelling{"cpu", Device::Cpu},         Spelling{"metal", Device::Metal},     Spelling{"mlx", Device::Mlx},
    Spelling{"ane", Device::Ane},         Spelling{"cuda", Device::Cuda},       Spelling{"rocm", Device::Rocm},
    Spelling{"gpu", Device::Gpu},         Spelling{"wgpu", Device::Gpu},        Spelling{"vulkan", Device::Vulkan},
    Spelling{"webgpu", Device::WebGpu},   Spelling{"directx", Device::DirectX}, Spelling{"dx12", Device::DirectX},
    Spelling{"opengl", Device::OpenGl},   Spelling{"tpu", Device::Tpu},         Spelling{"oneapi", Device::OneApi},
    Spelling{"hexagon", Device::Hexagon},
};
} // namespace

std::string_view deviceName(Device d)
{
    switch (d) {
    case Device::Cpu: return "Cpu";
    case Device::Metal: return "Metal";
    case Device::Mlx: return "Mlx";
    case Device::Ane: return "Ane";
    case Device::Cuda: return "Cuda";
    case Device::Rocm: return "Rocm";
    case Device::Gpu: return "Gpu";
    case Device::Vulkan: return "Vulkan";
    case Device::WebGpu: return "WebGpu";
    case Device::DirectX: return "DirectX";
    case Device::OpenGl: return "OpenGl";
    case Device::Tpu: return "Tpu";
    case Device::OneApi: return "OneApi";
    case Device::Hexagon: return "Hexagon";
    }
    return "Cpu";
}

std::optional<Device> parseDevice(std::string_view s)
{
    std::string lower;
    for (char c : s)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const Spelling& sp : kSpellings)
        if (sp.text == lower)
            return sp.device;
    return std::nullopt;
}

bool isGpuClass(Device d)
{
    return d != Device::Cpu;
}

const std::vector<Device>& devicePriority()
{
    static const std::vector<Device> order = {
        Device::Tpu,     Device::Cuda, Device::Rocm,   Device::OneApi,  Device::Mlx,
        Device::Metal,   Device::Ane,  Device::Hexagon, Device::Gpu,    Device::Vulkan,
        Device::DirectX, Device::OpenGl, Device::WebGpu, Device::Cpu,
    };
    return order;
}

int priorityRank(Device d)
{
    const auto& order = devicePriority();
    return static_cast<int>(std::find(order.begin(), order.end(), d) - order.begin());
}

const std::vector<Device>& estimableDevices()
{
    static const std::vector<Device> list = {
        Device::Cpu,    Device::Metal,  Device::Mlx,     Device::Ane,     Device::Cuda,   Device::Rocm,
        Device::Gpu,    Device::Vulkan, Device::WebGpu,  Device::DirectX, Device::OpenGl, Device::Tpu,
    };
    return list;
}

} // namespace costscope
