// SPDX-License-Identifier: MIT
#pragma once

#include "vulkan/vk_context.h"

namespace costscope::vk {

// A range of one VkBuffer.
struct Slice {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
};

// Device-local tensor memory for one plan. Debian 12 does not package the Vulkan Memory Allocator, and a plan's
// tensors are all allocated once at compile time and freed together, so a bump allocator over a few large
// blocks is all that is needed: few vkAllocateMemory calls (drivers cap them) and no fragmentation.
class Arena {
public:
    explicit Arena(std::shared_ptr<Context> context) : m_context(std::move(context)) {}
    ~Arena();
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    // `bytes` rounded up; offsets aligned for storage-buffer descriptors. Out of memory is an error.
    Result<Slice> allocate(VkDeviceSize bytes);

private:
    struct Block {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkDeviceSize size = 0;
        VkDeviceSize used = 0;
    };
    std::shared_ptr<Context> m_context;
    std::vector<Block> m_blocks;
};

// A host-visible, coherent buffer kept mapped: staging for uploads and readbacks, and the dispatch parameters.
class HostBuffer {
public:
    static Result<std::unique_ptr<HostBuffer>> create(std::shared_ptr<Context> context, VkDeviceSize bytes,
                                                      VkBufferUsageFlags usage);
    ~HostBuffer();
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;

    VkBuffer buffer() const { return m_buffer; }
    std::byte* data() const { return m_mapped; }
    VkDeviceSize size() const { return m_size; }

private:
    HostBuffer() = default;
    std::shared_ptr<Context> m_context;
    VkBuffer m_buffer = VK_NULL_HANDLE;
    VkDeviceMemory m_memory = VK_NULL_HANDLE;
    std::byte* m_mapped = nullptr;
    VkDeviceSize m_size = 0;
};

// Buffer and memory bound together; false and an error on failure (nothing leaks).
Result<bool> createBuffer(Context& c, VkDeviceSize bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                          VkMemoryPropertyFlags fallback, VkBuffer& buffer, VkDeviceMemory& memory);

} // namespace costscope::vk
