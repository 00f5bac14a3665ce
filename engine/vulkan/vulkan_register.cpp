// SPDX-License-Identifier: MIT
#include "vulkan/vulkan_register.h"
#include "vulkan/vulkan_backend.h"

namespace costscope {

std::unique_ptr<Backend> makeVulkanBackend()
{
    return std::make_unique<vk::VulkanBackend>();
}

int vulkanValidationErrors()
{
    return vk::validationErrorCount();
}

std::string vulkanLastValidationError()
{
    return vk::lastValidationError();
}

} // namespace costscope
