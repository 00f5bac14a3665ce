// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "ir/diagnostic.h"

#include <vulkan/vulkan.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace costscope::vk {

// A Vulkan info struct with its sType set and everything else zero.
template <class T>
T vkInfo(VkStructureType type)
{
    T v{};
    v.sType = type;
    return v;
}

// "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST"; device loss and out-of-memory become errors, never aborts.
Diagnostic vkError(std::string_view what, VkResult r);

// The Vulkan instance and the list of physical devices; one per backend.
class Instance {
public:
    static Result<std::shared_ptr<Instance>> create();
    ~Instance();
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    VkInstance handle() const { return m_instance; }
    const std::vector<VkPhysicalDevice>& physicalDevices() const { return m_devices; }
    std::vector<DeviceInfo> describeDevices() const;
    bool validationEnabled() const { return m_messenger != VK_NULL_HANDLE; }

private:
    Instance() = default;
    VkInstance m_instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT m_messenger = VK_NULL_HANDLE;
    std::vector<VkPhysicalDevice> m_devices;
};

// Validation-layer errors seen by this process (the layers are on when COSTSCOPE_VULKAN_VALIDATION=1 and the
// Khronos layer is installed); tests fail on any.
int validationErrorCount();
std::string lastValidationError();

// One logical device with its compute queue, the shared pipeline layout and the pipelines built so far.
class Context {
public:
    static Result<std::shared_ptr<Context>> create(std::shared_ptr<Instance> instance, DeviceIndex index);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkDevice device() const { return m_device; }
    VkPhysicalDevice physical() const { return m_physical; }
    VkQueue queue() const { return m_queue; }
    VkDescriptorSetLayout setLayout() const { return m_setLayout; }
    VkPipelineLayout pipelineLayout() const { return m_pipelineLayout; }
    const VkPhysicalDeviceProperties& properties() const { return m_properties; }
    bool timestampsSupported() const { return m_timestampBits > 0; }
    bool float64() const { return m_float64; }
    double timestampPeriodNs() const { return m_properties.limits.timestampPeriod; }
    std::string name() const { return m_properties.deviceName; }
    std::uint32_t queueFamily() const { return m_queueFamily; }

    // The compute pipeline of an embedded shader with these specialization constants (ids 0, 1, ...), built on
    // first use and cached.
    Result<VkPipeline> pipeline(std::string_view shader, const std::vector<std::int32_t>& constants = {});
    // Memory type with the flags, among those allowed by typeBits; -1 when none.
    int memoryType(std::uint32_t typeBits, VkMemoryPropertyFlags flags) const;

    // Submits one recorded command buffer (the queue is shared by every plan of the device) and waits for it.
    Result<bool> submitAndWait(VkCommandBuffer cmd, VkFence fence);

private:
    Context() = default;
    std::shared_ptr<Instance> m_instance;
    VkPhysicalDevice m_physical = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties m_properties{};
    VkPhysicalDeviceMemoryProperties m_memory{};
    std::uint32_t m_timestampBits = 0;
    bool m_float64 = false;
    VkDevice m_device = VK_NULL_HANDLE;
    VkQueue m_queue = VK_NULL_HANDLE;
    std::uint32_t m_queueFamily = 0;
    VkDescriptorSetLayout m_setLayout = VK_NULL_HANDLE;
    VkPipelineLayout m_pipelineLayout = VK_NULL_HANDLE;
    VkPipelineCache m_pipelineCache = VK_NULL_HANDLE;
    std::mutex m_mutex; // plans of one backend may be driven from different threads
    std::map<std::string, VkPipeline, std::less<>> m_pipelines;
    std::map<std::string, VkShaderModule, std::less<>> m_modules;
};

// A command pool, one primary command buffer and a fence: what one thread needs to record and submit work.
class Commands {
public:
    static Result<std::unique_ptr<Commands>> create(std::shared_ptr<Context> context);
    ~Commands();
    Commands(const Commands&) = delete;
    Commands& operator=(const Commands&) = delete;

    // Resets and begins the command buffer.
    Result<VkCommandBuffer> begin();
    // Ends, submits and waits.
    Result<bool> submitAndWait();
    Context& context() const { return *m_context; }

private:
    Commands() = default;
    std::shared_ptr<Context> m_context;
    VkCommandPool m_pool = VK_NULL_HANDLE;
    VkCommandBuffer m_cmd = VK_NULL_HANDLE;
    VkFence m_fence = VK_NULL_HANDLE;
};

// A full memory barrier between two dispatches or transfers: every shader write before is visible after.
void computeBarrier(VkCommandBuffer cmd);

} // namespace costscope::vk
