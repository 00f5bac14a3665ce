// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <memory>

namespace costscope {

// The Vulkan backend for tests and benchmarks that link it directly; the binaries load it as a plugin
// (vulkan_plugin.cpp).
std::unique_ptr<Backend> makeVulkanBackend();

// Validation-layer errors reported so far in this process (layers are on when COSTSCOPE_VULKAN_VALIDATION=1 and
// VK_LAYER_KHRONOS_validation is installed), and the last message.
int vulkanValidationErrors();
std::string vulkanLastValidationError();

} // namespace costscope
