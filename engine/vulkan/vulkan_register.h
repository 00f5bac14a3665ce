// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <memory>

namespace costscope {

// The Vulkan backend (only built when COSTSCOPE_HAVE_VULKAN); the backend factory lists it as "vulkan".
std::unique_ptr<Backend> makeVulkanBackend();

// Validation-layer errors reported so far in this process (layers are on when COSTSCOPE_VULKAN_VALIDATION=1 and
// VK_LAYER_KHRONOS_validation is installed), and the last message.
int vulkanValidationErrors();
std::string vulkanLastValidationError();

} // namespace costscope
