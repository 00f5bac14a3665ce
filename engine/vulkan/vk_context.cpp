// SPDX-License-Identifier: MIT
#include "vulkan/vk_context.h"
#include "vulkan/vk_shaders.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace costscope::vk {

namespace {
std::atomic<int> g_validationErrors{0};
std::mutex g_validationMutex;
std::string g_lastValidationError;

const char* resultName(VkResult r)
{
    switch (r) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    default: return "VkResult";
    }
}

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void*)
{
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        ++g_validationErrors;
        std::lock_guard lock(g_validationMutex);
        g_lastValidationError = data && data->pMessage ? data->pMessage : "(no message)";
    }
    return VK_FALSE;
}

bool layerInstalled(const char* name)
{
    std::uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    return std::any_of(layers.begin(), layers.end(), [&](const auto& l) { return std::strcmp(l.layerName, name) == 0; });
}

int computeQueueFamily(VkPhysicalDevice d)
{
    std::uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, families.data());
    for (std::uint32_t i = 0; i < n; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            return static_cast<int>(i);
    return -1;
}
} // namespace

Diagnostic vkError(std::string_view what, VkResult r)
{
    return Diagnostic::error(std::string(what) + " failed: " + resultName(r) + " (" + std::to_string(int(r)) + ")");
}

int validationErrorCount()
{
    return g_validationErrors.load();
}

std::string lastValidationError()
{
    std::lock_guard lock(g_validationMutex);
    return g_lastValidationError;
}

Result<std::shared_ptr<Instance>> Instance::create()
{
    std::shared_ptr<Instance> inst(new Instance);
    auto app = vkInfo<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "costscope";
    app.apiVersion = VK_API_VERSION_1_2;
    const char* validation = "VK_LAYER_KHRONOS_validation";
    const char* env = std::getenv("COSTSCOPE_VULKAN_VALIDATION");
    const bool wantValidation = env && std::strcmp(env, "1") == 0 && layerInstalled(validation);
    const char* debugExt = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    auto ci = vkInfo<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    ci.pApplicationInfo = &app;
    if (wantValidation) {
        ci.enabledLayerCount = 1;
        ci.ppEnabledLayerNames = &validation;
        ci.enabledExtensionCount = 1;
        ci.ppEnabledExtensionNames = &debugExt;
    }
    if (VkResult r = vkCreateInstance(&ci, nullptr, &inst->m_instance); r != VK_SUCCESS)
        return vkError("vkCreateInstance", r);
    if (wantValidation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(inst->m_instance, "vkCreateDebugUtilsMessengerEXT"));
        auto mi = vkInfo<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
        mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
        mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
        mi.pfnUserCallback = onValidationMessage;
        if (create)
            create(inst->m_instance, &mi, nullptr, &inst->m_messenger);
    }
    std::uint32_t n = 0;
    vkEnumeratePhysicalDevices(inst->m_instance, &n, nullptr);
    std::vector<VkPhysicalDevice> all(n);
    vkEnumeratePhysicalDevices(inst->m_instance, &n, all.data());
    for (VkPhysicalDevice d : all) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(d, &p);
        if (p.apiVersion >= VK_API_VERSION_1_2 && computeQueueFamily(d) >= 0)
            inst->m_devices.push_back(d);
    }
    return inst;
}

Instance::~Instance()
{
    if (m_messenger) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(m_instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy)
            destroy(m_instance, m_messenger, nullptr);
    }
    if (m_instance)
        vkDestroyInstance(m_instance, nullptr);
}

namespace {
bool hasDeviceExtension(VkPhysicalDevice device, const char* name)
{
    std::uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(device, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> all(n);
    vkEnumerateDeviceExtensionProperties(device, nullptr, &n, all.data());
    return std::any_of(all.begin(), all.end(),
                       [name](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}
} // namespace

std::vector<DeviceInfo> Instance::describeDevices() const
{
    std::vector<DeviceInfo> out;
    for (std::size_t i = 0; i < m_devices.size(); ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(m_devices[i], &p);
        VkPhysicalDeviceMemoryProperties mem;
        vkGetPhysicalDeviceMemoryProperties(m_devices[i], &mem);
        std::uint64_t local = 0;
        for (std::uint32_t h = 0; h < mem.memoryHeapCount; ++h)
            if (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
                local = std::max<std::uint64_t>(local, mem.memoryHeaps[h].size);
        // Vulkan does not expose a compute-unit count; the subgroup size is the closest portable figure.
        auto sub = vkInfo<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
        auto pci = vkInfo<VkPhysicalDevicePCIBusInfoPropertiesEXT>(
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT);
        const bool hasPci = hasDeviceExtension(m_devices[i], VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
        sub.pNext = hasPci ? &pci : nullptr;
        auto p2 = vkInfo<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
        p2.pNext = &sub;
        vkGetPhysicalDeviceProperties2(m_devices[i], &p2);
        char busId[32] = {};
        if (hasPci)
            std::snprintf(busId, sizeof busId, "%04x:%02x:%02x.%x", pci.pciDomain, pci.pciBus, pci.pciDevice,
                          pci.pciFunction);
        // Vulkan does not report clocks.
        out.push_back({"vulkan", static_cast<DeviceIndex>(i), p.deviceName, local, static_cast<int>(sub.subgroupSize),
                       busId, 0, 0});
    }
    return out;
}

Result<std::shared_ptr<Context>> Context::create(std::shared_ptr<Instance> instance, DeviceIndex index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= instance->physicalDevices().size())
        return Diagnostic::error("no Vulkan device " + std::to_string(index) + " (" +
                                 std::to_string(instance->physicalDevices().size()) + " found)");
    std::shared_ptr<Context> c(new Context);
    c->m_instance = std::move(instance);
    c->m_physical = c->m_instance->physicalDevices()[static_cast<std::size_t>(index)];
    vkGetPhysicalDeviceProperties(c->m_physical, &c->m_properties);
    vkGetPhysicalDeviceMemoryProperties(c->m_physical, &c->m_memory);
    c->m_queueFamily = static_cast<std::uint32_t>(computeQueueFamily(c->m_physical));
    std::uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c->m_physical, &nf, nullptr);
    std::vector<VkQueueFamilyProperties> families(nf);
    vkGetPhysicalDeviceQueueFamilyProperties(c->m_physical, &nf, families.data());
    c->m_timestampBits = families[c->m_queueFamily].timestampValidBits;

    VkPhysicalDeviceFeatures supported{};
    vkGetPhysicalDeviceFeatures(c->m_physical, &supported);
    if (!supported.shaderInt64)
        return Diagnostic::error(c->name() + " lacks shaderInt64, which the I64 kernels need");
    VkPhysicalDeviceFeatures features{};
    features.shaderInt64 = VK_TRUE;
    features.shaderFloat64 = supported.shaderFloat64;
    c->m_float64 = supported.shaderFloat64 == VK_TRUE;
    const float priority = 1.0f;
    auto qi = vkInfo<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qi.queueFamilyIndex = c->m_queueFamily;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    auto di = vkInfo<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    di.pEnabledFeatures = &features;
    if (VkResult r = vkCreateDevice(c->m_physical, &di, nullptr, &c->m_device); r != VK_SUCCESS)
        return vkError("vkCreateDevice", r);
    vkGetDeviceQueue(c->m_device, c->m_queueFamily, 0, &c->m_queue);

    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (std::uint32_t b = 0; b <= kTensorBindings; ++b)
        bindings.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    auto li = vkInfo<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    li.bindingCount = static_cast<std::uint32_t>(bindings.size());
    li.pBindings = bindings.data();
    if (VkResult r = vkCreateDescriptorSetLayout(c->m_device, &li, nullptr, &c->m_setLayout); r != VK_SUCCESS)
        return vkError("vkCreateDescriptorSetLayout", r);
    auto pli = vkInfo<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &c->m_setLayout;
    if (VkResult r = vkCreatePipelineLayout(c->m_device, &pli, nullptr, &c->m_pipelineLayout); r != VK_SUCCESS)
        return vkError("vkCreatePipelineLayout", r);
    auto pci = vkInfo<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    if (VkResult r = vkCreatePipelineCache(c->m_device, &pci, nullptr, &c->m_pipelineCache); r != VK_SUCCESS)
        return vkError("vkCreatePipelineCache", r);
    return c;
}

Context::~Context()
{
    if (!m_device)
        return;
    vkDeviceWaitIdle(m_device);
    for (auto& [name, p] : m_pipelines)
        vkDestroyPipeline(m_device, p, nullptr);
    for (auto& [name, m] : m_modules)
        vkDestroyShaderModule(m_device, m, nullptr);
    if (m_pipelineCache)
        vkDestroyPipelineCache(m_device, m_pipelineCache, nullptr);
    if (m_pipelineLayout)
        vkDestroyPipelineLayout(m_device, m_pipelineLayout, nullptr);
    if (m_setLayout)
        vkDestroyDescriptorSetLayout(m_device, m_setLayout, nullptr);
    vkDestroyDevice(m_device, nullptr);
}

Result<VkPipeline> Context::pipeline(std::string_view shader, const std::vector<std::int32_t>& constants)
{
    std::lock_guard lock(m_mutex);
    std::string key(shader);
    for (std::int32_t c : constants)
        key += '#' + std::to_string(c);
    if (auto it = m_pipelines.find(key); it != m_pipelines.end())
        return it->second;
    VkShaderModule module = VK_NULL_HANDLE;
    if (auto it = m_modules.find(shader); it != m_modules.end()) {
        module = it->second;
    } else {
        const EmbeddedShader* found = nullptr;
        for (const EmbeddedShader& s : embeddedShaders())
            if (s.name == shader)
                found = &s;
        if (!found)
            return Diagnostic::error("no embedded shader '" + std::string(shader) + "'");
        auto mi = vkInfo<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
        mi.codeSize = found->wordCount * 4;
        mi.pCode = found->words;
        if (VkResult r = vkCreateShaderModule(m_device, &mi, nullptr, &module); r != VK_SUCCESS)
            return vkError("vkCreateShaderModule", r);
        m_modules.emplace(std::string(shader), module);
    }
    std::vector<VkSpecializationMapEntry> entries;
    for (std::uint32_t i = 0; i < constants.size(); ++i)
        entries.push_back({i, i * 4, 4});
    VkSpecializationInfo spec{static_cast<std::uint32_t>(entries.size()), entries.data(), constants.size() * 4,
                              constants.data()};
    auto pi = vkInfo<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    pi.stage = vkInfo<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    pi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pi.stage.module = module;
    pi.stage.pName = "main";
    pi.stage.pSpecializationInfo = constants.empty() ? nullptr : &spec;
    pi.layout = m_pipelineLayout;
    VkPipeline p = VK_NULL_HANDLE;
    if (VkResult r = vkCreateComputePipelines(m_device, m_pipelineCache, 1, &pi, nullptr, &p); r != VK_SUCCESS)
        return vkError("vkCreateComputePipelines(" + key + ")", r);
    m_pipelines.emplace(key, p);
    return p;
}

int Context::memoryType(std::uint32_t typeBits, VkMemoryPropertyFlags flags) const
{
    for (std::uint32_t i = 0; i < m_memory.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (m_memory.memoryTypes[i].propertyFlags & flags) == flags)
            return static_cast<int>(i);
    return -1;
}

Result<bool> Context::submitAndWait(VkCommandBuffer cmd, VkFence fence)
{
    auto si = vkInfo<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    {
        std::lock_guard lock(m_mutex);
        if (VkResult r = vkQueueSubmit(m_queue, 1, &si, fence); r != VK_SUCCESS)
            return vkError("vkQueueSubmit", r);
    }
    // A generous bound: a hung device becomes an error instead of a hang.
    constexpr std::uint64_t timeoutNs = 600ull * 1000 * 1000 * 1000;
    if (VkResult r = vkWaitForFences(m_device, 1, &fence, VK_TRUE, timeoutNs); r != VK_SUCCESS)
        return vkError("vkWaitForFences", r);
    return true;
}

Result<std::unique_ptr<Commands>> Commands::create(std::shared_ptr<Context> context)
{
    std::unique_ptr<Commands> c(new Commands);
    c->m_context = std::move(context);
    VkDevice dev = c->m_context->device();
    auto pi = vkInfo<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pi.queueFamilyIndex = c->m_context->queueFamily();
    if (VkResult r = vkCreateCommandPool(dev, &pi, nullptr, &c->m_pool); r != VK_SUCCESS)
        return vkError("vkCreateCommandPool", r);
    auto ai = vkInfo<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    ai.commandPool = c->m_pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    if (VkResult r = vkAllocateCommandBuffers(dev, &ai, &c->m_cmd); r != VK_SUCCESS)
        return vkError("vkAllocateCommandBuffers", r);
    auto fi = vkInfo<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    if (VkResult r = vkCreateFence(dev, &fi, nullptr, &c->m_fence); r != VK_SUCCESS)
        return vkError("vkCreateFence", r);
    return c;
}

Commands::~Commands()
{
    VkDevice dev = m_context->device();
    if (m_fence)
        vkDestroyFence(dev, m_fence, nullptr);
    if (m_pool)
        vkDestroyCommandPool(dev, m_pool, nullptr);
}

Result<VkCommandBuffer> Commands::begin()
{
    if (VkResult r = vkResetCommandBuffer(m_cmd, 0); r != VK_SUCCESS)
        return vkError("vkResetCommandBuffer", r);
    auto bi = vkInfo<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (VkResult r = vkBeginCommandBuffer(m_cmd, &bi); r != VK_SUCCESS)
        return vkError("vkBeginCommandBuffer", r);
    return m_cmd;
}

Result<bool> Commands::submitAndWait()
{
    if (VkResult r = vkEndCommandBuffer(m_cmd); r != VK_SUCCESS)
        return vkError("vkEndCommandBuffer", r);
    if (VkResult r = vkResetFences(m_context->device(), 1, &m_fence); r != VK_SUCCESS)
        return vkError("vkResetFences", r);
    return m_context->submitAndWait(m_cmd, m_fence);
}

void computeBarrier(VkCommandBuffer cmd)
{
    auto b = vkInfo<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT
        | VK_ACCESS_TRANSFER_WRITE_BIT;
    const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &b, 0, nullptr, 0, nullptr);
}

} // namespace costscope::vk
