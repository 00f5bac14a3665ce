// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// The devices RLX names (cost-model.md §1), plus OneApi and Hexagon from its priority list.
enum class Device { Cpu, Metal, Mlx, Ane, Cuda, Rocm, Gpu, Vulkan, WebGpu, DirectX, OpenGl, Tpu, OneApi, Hexagon };

std::string_view deviceName(Device d); // "Cpu", "Cuda", ...
// Case-insensitive; accepts "wgpu" for Gpu and "directx"/"dx12" spellings.
std::optional<Device> parseDevice(std::string_view s);
bool isGpuClass(Device d); // every device except Cpu
// RLX's priority order, best first: Tpu, Cuda, Rocm, OneApi, Mlx, Metal, Ane, Hexagon, Gpu, Vulkan, DirectX,
// OpenGl, WebGpu, Cpu.
const std::vector<Device>& devicePriority();
int priorityRank(Device d);
// The devices a user can estimate for (everything RLX names in §1).
const std::vector<Device>& estimableDevices();

} // namespace costscope
