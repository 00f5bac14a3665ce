// SPDX-License-Identifier: MIT
#include "backend.h"
#include "cpu/cpu_backend.h"

#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/cuda_register.h"
#endif
#ifdef COSTSCOPE_HAVE_VULKAN
#include "vulkan/vulkan_register.h"
#endif

namespace costscope {

std::vector<std::unique_ptr<Backend>> availableBackends()
{
    std::vector<std::unique_ptr<Backend>> list;
    list.push_back(std::make_unique<CpuBackend>());
#ifdef COSTSCOPE_HAVE_CUDA
    list.push_back(makeCudaBackend());
#endif
#ifdef COSTSCOPE_HAVE_VULKAN
    list.push_back(makeVulkanBackend());
#endif
    return list;
}

std::unique_ptr<Backend> makeBackend(const std::string& name)
{
    for (auto& backend : availableBackends())
        if (backend->name() == name)
            return std::move(backend);
    return nullptr;
}

} // namespace costscope
