// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "vulkan/vk_lowering.h"
#include "vulkan/vk_memory.h"

#include <memory>

namespace costscope::vk {

// A graph compiled for one Vulkan device: every tensor has its own slice of device memory (views share their
// input's), every dispatch its descriptor set and parameter block, all made once at compile time. A plain run
// records the dispatches into one command buffer and submits it once; an instrumented run adds a timestamp
// before and after each node's dispatches.
class VulkanPlan : public ExecutablePlan {
public:
    struct Step {
        std::size_t node;                 // position in the graph
        std::vector<Dispatch> dispatches; // empty for leaves and views
    };
    struct Compiled {
        Graph graph;
        std::vector<Step> steps;
        std::vector<Value> values;                // per graph node
        std::vector<std::uint64_t> slotBytes;     // per slot
        std::vector<std::optional<HostTensor>> parameters; // per graph node: Param/Constant values
        std::vector<std::pair<std::size_t, HostTensor>> constants; // slot and values made by lowerings
        std::vector<PlanInput> inputs;
    };

    static Result<std::unique_ptr<VulkanPlan>> create(std::shared_ptr<Context> context, Compiled compiled);
    ~VulkanPlan() override;

    Result<bool> uploadParameters() override;
    Result<bool> setInputs(const std::vector<HostTensor>& inputs) override;
    Result<bool> run(const std::atomic<bool>* cancel) override;
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>* cancel) override;
    Result<std::vector<HostTensor>> readOutputs() const override;

private:
    explicit VulkanPlan(std::shared_ptr<Context> context) : m_context(std::move(context)), m_arena(m_context) {}
    Result<bool> prepare();
    // (slot, values) pairs to device memory in one submission.
    Result<bool> upload(const std::vector<std::pair<std::size_t, const HostTensor*>>& items);
    Result<bool> execute(const std::atomic<bool>* cancel, std::vector<NodeTiming>* timings);
    Result<HostBuffer*> staging(VkDeviceSize bytes) const;
    Diagnostic atNode(std::size_t node, const std::string& message) const;

    std::shared_ptr<Context> m_context;
    Arena m_arena;
    Compiled m_c;
    std::unique_ptr<Commands> m_commands;
    std::vector<Slice> m_slots;
    mutable std::unique_ptr<HostBuffer> m_staging;
    VkDescriptorPool m_descriptorPool = VK_NULL_HANDLE;
    VkQueryPool m_queryPool = VK_NULL_HANDLE;
    struct Bound {
        VkPipeline pipeline;
        VkDescriptorSet set;
        std::array<std::uint32_t, 3> groups;
    };
    std::vector<std::vector<Bound>> m_bound; // per step
    bool m_parametersReady = false;
    bool m_inputsReady = false;
};

// Host bytes of a tensor as the device holds it (Bool widened to 32 bits) and back.
void toDevice(const HostTensor& t, std::byte* dst);
void fromDevice(const std::byte* src, HostTensor& t);

} // namespace costscope::vk
