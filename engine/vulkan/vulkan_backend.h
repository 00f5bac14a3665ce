// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "vulkan/vk_context.h"

#include <map>
#include <mutex>

namespace costscope::vk {

// The "vulkan" backend: every Vulkan 1.2 physical device with a compute queue, by index.
class VulkanBackend : public Backend {
public:
    std::string name() const override { return "vulkan"; }
    std::vector<DeviceInfo> devices() const override;
    Result<std::unique_ptr<ExecutablePlan>> compile(const Graph& g, const Bindings& bindings,
                                                    DeviceIndex device) override;
    // The device's context, created on first use and shared by its plans.
    Result<std::shared_ptr<Context>> context(DeviceIndex device);

private:
    // compile() once the graph's constants and shapes are folded.
    Result<std::unique_ptr<ExecutablePlan>> compileAsGiven(const Graph& g, const Bindings& bindings,
                                                           DeviceIndex device);
    Result<std::shared_ptr<Instance>> instance() const;
    mutable std::mutex m_mutex;
    mutable std::shared_ptr<Instance> m_instance;
    std::map<DeviceIndex, std::shared_ptr<Context>> m_contexts;
};

} // namespace costscope::vk
