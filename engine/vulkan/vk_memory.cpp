// SPDX-License-Identifier: MIT
#include "vulkan/vk_memory.h"

#include <algorithm>

namespace costscope::vk {

namespace {
constexpr VkDeviceSize kBlockBytes = 64ull << 20;
constexpr VkDeviceSize kAlignment = 256; // covers minStorageBufferOffsetAlignment on every known device
constexpr VkBufferUsageFlags kTensorUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT
    | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
} // namespace

Result<bool> createBuffer(Context& c, VkDeviceSize bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                          VkMemoryPropertyFlags fallback, VkBuffer& buffer, VkDeviceMemory& memory)
{
    auto bi = vkInfo<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    bi.size = bytes;
    bi.usage = usage;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (VkResult r = vkCreateBuffer(c.device(), &bi, nullptr, &buffer); r != VK_SUCCESS)
        return vkError("vkCreateBuffer", r);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(c.device(), buffer, &req);
    int type = c.memoryType(req.memoryTypeBits, want);
    if (type < 0)
        type = c.memoryType(req.memoryTypeBits, fallback);
    VkResult r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (type >= 0) {
        auto ai = vkInfo<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = static_cast<std::uint32_t>(type);
        r = vkAllocateMemory(c.device(), &ai, nullptr, &memory);
        if (r == VK_SUCCESS)
            r = vkBindBufferMemory(c.device(), buffer, memory, 0);
    }
    if (r != VK_SUCCESS) {
        if (memory)
            vkFreeMemory(c.device(), memory, nullptr);
        vkDestroyBuffer(c.device(), buffer, nullptr);
        buffer = VK_NULL_HANDLE;
        memory = VK_NULL_HANDLE;
        return vkError("allocating " + std::to_string(bytes) + " bytes of Vulkan memory", r);
    }
    return true;
}

Arena::~Arena()
{
    for (Block& b : m_blocks) {
        vkDestroyBuffer(m_context->device(), b.buffer, nullptr);
        vkFreeMemory(m_context->device(), b.memory, nullptr);
    }
}

Result<Slice> Arena::allocate(VkDeviceSize bytes)
{
    bytes = std::max<VkDeviceSize>((bytes + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
    for (Block& b : m_blocks)
        if (b.size - b.used >= bytes) {
            Slice s{b.buffer, b.used, bytes};
            b.used += bytes;
            return s;
        }
    Block b;
    b.size = std::max(bytes, kBlockBytes);
    auto ok = createBuffer(*m_context, b.size, kTensorUsage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, b.buffer, b.memory);
    if (!ok)
        return ok.error();
    b.used = bytes;
    m_blocks.push_back(b);
    return Slice{b.buffer, 0, bytes};
}

Result<std::unique_ptr<HostBuffer>> HostBuffer::create(std::shared_ptr<Context> context, VkDeviceSize bytes,
                                                       VkBufferUsageFlags usage)
{
    std::unique_ptr<HostBuffer> h(new HostBuffer);
    h->m_context = std::move(context);
    h->m_size = std::max<VkDeviceSize>(bytes, 256);
    const VkMemoryPropertyFlags flags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    auto ok = createBuffer(*h->m_context, h->m_size, usage, flags | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, flags,
                           h->m_buffer, h->m_memory);
    if (!ok)
        return ok.error();
    void* p = nullptr;
    if (VkResult r = vkMapMemory(h->m_context->device(), h->m_memory, 0, VK_WHOLE_SIZE, 0, &p); r != VK_SUCCESS)
        return vkError("vkMapMemory", r);
    h->m_mapped = static_cast<std::byte*>(p);
    return h;
}

HostBuffer::~HostBuffer()
{
    if (m_buffer)
        vkDestroyBuffer(m_context->device(), m_buffer, nullptr);
    if (m_memory)
        vkFreeMemory(m_context->device(), m_memory, nullptr);
}

} // namespace costscope::vk
