// SPDX-License-Identifier: MIT
#include "vulkan/vk_plan.h"
#include "plan_inputs.h"

#include <cstring>

namespace costscope::vk {

namespace {
constexpr VkDeviceSize kParamAlignment = 256;

VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a)
{
    return (v + a - 1) / a * a;
}
} // namespace

void toDevice(const HostTensor& t, std::byte* dst)
{
    if (t.dtype() != DType::Bool) {
        if (t.byteSize())
            std::memcpy(dst, t.bytes(), t.byteSize());
        return;
    }
    const auto* src = reinterpret_cast<const std::uint8_t*>(t.bytes());
    for (std::uint64_t i = 0; i < t.elements(); ++i) {
        const std::uint32_t w = src[i] ? 1u : 0u;
        std::memcpy(dst + i * 4, &w, 4);
    }
}

void fromDevice(const std::byte* src, HostTensor& t)
{
    if (t.dtype() != DType::Bool) {
        if (t.byteSize())
            std::memcpy(t.bytes(), src, t.byteSize());
        return;
    }
    auto* dst = reinterpret_cast<std::uint8_t*>(t.bytes());
    for (std::uint64_t i = 0; i < t.elements(); ++i) {
        std::uint32_t w;
        std::memcpy(&w, src + i * 4, 4);
        dst[i] = w ? 1 : 0;
    }
}

Result<std::unique_ptr<VulkanPlan>> VulkanPlan::create(std::shared_ptr<Context> context, Compiled compiled)
{
    std::unique_ptr<VulkanPlan> p(new VulkanPlan(std::move(context)));
    p->m_c = std::move(compiled);
    p->m_inputs = p->m_c.inputs;
    if (auto r = p->prepare(); !r)
        return r.error();
    return p;
}

VulkanPlan::~VulkanPlan()
{
    VkDevice dev = m_context->device();
    vkDeviceWaitIdle(dev);
    if (m_queryPool)
        vkDestroyQueryPool(dev, m_queryPool, nullptr);
    if (m_descriptorPool)
        vkDestroyDescriptorPool(dev, m_descriptorPool, nullptr);
}

Diagnostic VulkanPlan::atNode(std::size_t node, const std::string& message) const
{
    const Node& n = m_c.graph.nodes[node];
    const std::string name = n.displayName();
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, name.empty() ? n.op.label() : name, message);
}

Result<bool> VulkanPlan::prepare()
{
    auto commands = Commands::create(m_context);
    if (!commands)
        return commands.error();
    m_commands = std::move(*commands);
    for (std::uint64_t bytes : m_c.slotBytes) {
        auto s = m_arena.allocate(bytes);
        if (!s)
            return s.error();
        m_slots.push_back(*s);
    }
    auto dummy = m_arena.allocate(16); // bound to the bindings a shader leaves unused
    if (!dummy)
        return dummy.error();

    std::size_t dispatchCount = 0;
    VkDeviceSize paramBytes = 0;
    for (const Step& s : m_c.steps)
        for (const Dispatch& d : s.dispatches) {
            ++dispatchCount;
            paramBytes += alignUp(std::max<VkDeviceSize>(d.params.size() * 4, 16), kParamAlignment);
        }
    // The parameter words are written through a host-visible buffer once and copied to device memory: shaders
    // read them at every invocation, and host memory is a PCIe round trip away on a discrete GPU.
    auto params = HostBuffer::create(m_context, paramBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    if (!params)
        return params.error();
    auto deviceParams = m_arena.allocate(paramBytes);
    if (!deviceParams)
        return deviceParams.error();

    VkDevice dev = m_context->device();
    const auto sets = static_cast<std::uint32_t>(std::max<std::size_t>(dispatchCount, 1));
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sets * (kTensorBindings + 1)};
    auto pi = vkInfo<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pi.maxSets = sets;
    pi.poolSizeCount = 1;
    pi.pPoolSizes = &size;
    if (VkResult r = vkCreateDescriptorPool(dev, &pi, nullptr, &m_descriptorPool); r != VK_SUCCESS)
        return vkError("vkCreateDescriptorPool", r);

    VkDeviceSize paramOffset = 0;
    for (const Step& s : m_c.steps) {
        std::vector<Bound> bound;
        for (const Dispatch& d : s.dispatches) {
            auto pipeline = m_context->pipeline(d.shader, d.constants);
            if (!pipeline)
                return atNode(s.node, pipeline.error().message);
            VkDescriptorSetLayout layout = m_context->setLayout();
            auto ai = vkInfo<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
            ai.descriptorPool = m_descriptorPool;
            ai.descriptorSetCount = 1;
            ai.pSetLayouts = &layout;
            VkDescriptorSet set = VK_NULL_HANDLE;
            if (VkResult r = vkAllocateDescriptorSets(dev, &ai, &set); r != VK_SUCCESS)
                return vkError("vkAllocateDescriptorSets", r);
            const VkDeviceSize bytes = std::max<VkDeviceSize>(d.params.size() * 4, 16);
            if (!d.params.empty())
                std::memcpy((*params)->data() + paramOffset, d.params.data(), d.params.size() * 4);
            std::array<VkDescriptorBufferInfo, kTensorBindings + 1> infos{};
            infos[0] = {deviceParams->buffer, deviceParams->offset + paramOffset, bytes};
            paramOffset += alignUp(bytes, kParamAlignment);
            const VkDeviceSize maxRange = m_context->properties().limits.maxStorageBufferRange;
            for (std::uint32_t b = 0; b < kTensorBindings; ++b) {
                Slice sl = b < d.slots.size() && d.slots[b] != kNoSlot ? m_slots[d.slots[b]] : *dummy;
                if (b < d.ranges.size() && d.ranges[b].second) {
                    sl.offset += d.ranges[b].first;
                    sl.size = d.ranges[b].second;
                }
                if (sl.size > maxRange)
                    return atNode(s.node, "a tensor of " + std::to_string(sl.size) + " bytes exceeds the device's "
                                  "storage buffer range (" + std::to_string(maxRange) + "), not supported on Vulkan");
                infos[b + 1] = {sl.buffer, sl.offset, sl.size};
            }
            std::array<VkWriteDescriptorSet, kTensorBindings + 1> writes{};
            for (std::uint32_t b = 0; b <= kTensorBindings; ++b) {
                writes[b] = vkInfo<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
                writes[b].dstSet = set;
                writes[b].dstBinding = b;
                writes[b].descriptorCount = 1;
                writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
                writes[b].pBufferInfo = &infos[b];
            }
            vkUpdateDescriptorSets(dev, static_cast<std::uint32_t>(writes.size()), writes.data(), 0, nullptr);
            bound.push_back({*pipeline, set, d.groups});
        }
        m_bound.push_back(std::move(bound));
    }
    if (paramBytes) {
        auto cmd = m_commands->begin();
        if (!cmd)
            return cmd.error();
        VkBufferCopy region{0, deviceParams->offset, paramBytes};
        vkCmdCopyBuffer(*cmd, (*params)->buffer(), deviceParams->buffer, 1, &region);
        computeBarrier(*cmd);
        if (auto r = m_commands->submitAndWait(); !r)
            return r.error();
    }
    if (m_context->timestampsSupported()) {
        auto qi = vkInfo<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = static_cast<std::uint32_t>(std::max<std::size_t>(2 * m_c.steps.size(), 2));
        if (VkResult r = vkCreateQueryPool(dev, &qi, nullptr, &m_queryPool); r != VK_SUCCESS)
            return vkError("vkCreateQueryPool", r);
    }
    return true;
}

Result<HostBuffer*> VulkanPlan::staging(VkDeviceSize bytes) const
{
    if (!m_staging || m_staging->size() < bytes) {
        m_staging.reset();
        auto s = HostBuffer::create(m_context, bytes,
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        if (!s)
            return s.error();
        m_staging = std::move(*s);
    }
    return m_staging.get();
}

Result<bool> VulkanPlan::upload(const std::vector<std::pair<std::size_t, const HostTensor*>>& items)
{
    VkDeviceSize total = 0;
    for (const auto& [node, t] : items)
        total += alignUp(deviceBytes(t->dims(), t->dtype()), 16);
    auto st = staging(total);
    if (!st)
        return st.error();
    auto cmd = m_commands->begin();
    if (!cmd)
        return cmd.error();
    VkDeviceSize offset = 0;
    for (const auto& [slot, t] : items) {
        const VkDeviceSize bytes = deviceBytes(t->dims(), t->dtype());
        toDevice(*t, (*st)->data() + offset);
        const Slice& dst = m_slots[slot];
        if (bytes) {
            VkBufferCopy region{offset, dst.offset, bytes};
            vkCmdCopyBuffer(*cmd, (*st)->buffer(), dst.buffer, 1, &region);
        }
        offset += alignUp(bytes, 16);
    }
    computeBarrier(*cmd);
    return m_commands->submitAndWait();
}

Result<bool> VulkanPlan::uploadParameters()
{
    std::vector<std::pair<std::size_t, const HostTensor*>> items;
    for (std::size_t i = 0; i < m_c.parameters.size(); ++i)
        if (m_c.parameters[i])
            items.emplace_back(m_c.values[i].slot, &*m_c.parameters[i]);
    for (const auto& [slot, t] : m_c.constants)
        items.emplace_back(slot, &t);
    if (auto r = upload(items); !r)
        return r.error();
    m_parametersReady = true;
    return true;
}

Result<bool> VulkanPlan::setInputs(const std::vector<HostTensor>& inputs)
{
    if (auto bad = checkPlanInputs(m_inputs, inputs))
        return bad->input ? atNode(*m_c.graph.indexOf(m_inputs[*bad->input].node), bad->message)
                          : Diagnostic::error(bad->message);
    std::vector<std::pair<std::size_t, const HostTensor*>> items;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        items.emplace_back(m_c.values[*m_c.graph.indexOf(m_inputs[i].node)].slot, &inputs[i]);
    if (auto r = upload(items); !r)
        return r.error();
    m_inputsReady = true;
    return true;
}

Result<bool> VulkanPlan::execute(const std::atomic<bool>* cancel, std::vector<NodeTiming>* timings)
{
    if (!m_parametersReady)
        return Diagnostic::error("parameters were not uploaded");
    if (!m_inputsReady && !m_inputs.empty())
        return Diagnostic::error("inputs were not set");
    if (cancel && cancel->load(std::memory_order_relaxed))
        return Diagnostic::error("run cancelled");
    const bool timed = timings && m_queryPool;
    auto cmd = m_commands->begin();
    if (!cmd)
        return cmd.error();
    if (timed)
        vkCmdResetQueryPool(*cmd, m_queryPool, 0, static_cast<std::uint32_t>(2 * m_c.steps.size()));
    VkPipeline current = VK_NULL_HANDLE;
    for (std::size_t s = 0; s < m_c.steps.size(); ++s) {
        if (timed)
            vkCmdWriteTimestamp(*cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, m_queryPool, static_cast<std::uint32_t>(2 * s));
        for (const Bound& b : m_bound[s]) {
            if (b.pipeline != current)
                vkCmdBindPipeline(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b.pipeline);
            current = b.pipeline;
            vkCmdBindDescriptorSets(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m_context->pipelineLayout(), 0, 1, &b.set,
                                    0, nullptr);
            vkCmdDispatch(*cmd, b.groups[0], b.groups[1], b.groups[2]);
            computeBarrier(*cmd);
        }
        if (timed)
            vkCmdWriteTimestamp(*cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_queryPool,
                                static_cast<std::uint32_t>(2 * s + 1));
    }
    if (auto r = m_commands->submitAndWait(); !r)
        return r.error();
    if (!timings)
        return true;
    std::vector<std::uint64_t> stamps(2 * m_c.steps.size(), 0);
    if (timed && !stamps.empty()) {
        VkResult r = vkGetQueryPoolResults(m_context->device(), m_queryPool, 0, static_cast<std::uint32_t>(stamps.size()),
                                           stamps.size() * 8, stamps.data(), 8,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r != VK_SUCCESS)
            return vkError("vkGetQueryPoolResults", r);
    }
    const double period = m_context->timestampPeriodNs();
    for (std::size_t s = 0; s < m_c.steps.size(); ++s) {
        const Node& node = m_c.graph.nodes[m_c.steps[s].node];
        const std::uint64_t t0 = stamps[2 * s], t1 = stamps[2 * s + 1];
        const auto ns = static_cast<std::int64_t>(double(t1 > t0 ? t1 - t0 : 0) * period);
        timings->push_back({node.id, node.op.label(), m_bound[s].empty() ? 0 : ns});
    }
    return true;
}

Result<bool> VulkanPlan::run(const std::atomic<bool>* cancel)
{
    return execute(cancel, nullptr);
}

Result<std::vector<NodeTiming>> VulkanPlan::runInstrumented(const std::atomic<bool>* cancel)
{
    std::vector<NodeTiming> timings;
    if (auto r = execute(cancel, &timings); !r)
        return r.error();
    return timings;
}

Result<std::vector<HostTensor>> VulkanPlan::readOutputs() const
{
    VkDeviceSize total = 0;
    for (NodeId id : m_c.graph.outputs) {
        const Value& v = m_c.values[*m_c.graph.indexOf(id)];
        total += alignUp(deviceBytes(v.dims, v.dtype), 16);
    }
    auto st = staging(total);
    if (!st)
        return st.error();
    auto cmd = m_commands->begin();
    if (!cmd)
        return cmd.error();
    VkDeviceSize offset = 0;
    for (NodeId id : m_c.graph.outputs) {
        const Value& v = m_c.values[*m_c.graph.indexOf(id)];
        const VkDeviceSize bytes = deviceBytes(v.dims, v.dtype);
        const Slice& src = m_slots[v.slot];
        if (bytes) {
            VkBufferCopy region{src.offset, offset, bytes};
            vkCmdCopyBuffer(*cmd, src.buffer, (*st)->buffer(), 1, &region);
        }
        offset += alignUp(bytes, 16);
    }
    auto b = vkInfo<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(*cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0,
                         nullptr);
    if (auto r = m_commands->submitAndWait(); !r)
        return r.error();
    std::vector<HostTensor> out;
    offset = 0;
    for (NodeId id : m_c.graph.outputs) {
        const Value& v = m_c.values[*m_c.graph.indexOf(id)];
        HostTensor t(v.dims, v.dtype);
        fromDevice((*st)->data() + offset, t);
        offset += alignUp(deviceBytes(v.dims, v.dtype), 16);
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace costscope::vk
