// SPDX-License-Identifier: MIT
#include "vulkan/vulkan_backend.h"
#include "control_flow_plan.h"
#include "ir/constant_fold.h"
#include "shape_fold.h"
#include "synthetic.h"
#include "vulkan/vk_plan.h"

#include <climits>
#include <cstring>

namespace costscope::vk {

namespace {
Diagnostic atNode(const Node& n, const std::string& message)
{
    const std::string name = n.displayName();
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, name.empty() ? n.op.label() : name, message);
}

// Inputs the lowerings read unconditionally; the rest may come from attributes instead (ONNX vs RLX forms).
std::size_t requiredInputs(OpKind kind)
{
    switch (kind) {
    case OpKind::ConstantOfShape: return 0;
    case OpKind::Binary:
    case OpKind::Compare:
    case OpKind::MatMul:
    case OpKind::FusedMatMulBiasAct:
    case OpKind::Gemm:
    case OpKind::Conv:
    case OpKind::ConvTranspose:
    case OpKind::Gather:
    case OpKind::GatherElements: return 2;
    case OpKind::Where:
    case OpKind::Attention: return 3;
    default: return 1;
    }
}

Result<Dims> resolvedDims(const Node& n, const Bindings& bindings)
{
    Dims dims;
    for (const Dim& d : n.shape.dims) {
        auto v = d.resolve(bindings);
        if (!v || *v < 0)
            return atNode(n, "dim '" + d.toString() + "' is not bound");
        dims.push_back(*v);
    }
    return dims;
}

// The dtypes a device holds: F64 only where shaderFloat64 is supported.
bool held(DType t, const Context& ctx)
{
    return deviceElementSize(t) && (t != DType::F64 || ctx.float64());
}

Result<VulkanPlan::Compiled> lowerGraph(const Graph& g, const Bindings& bindings, const Context& ctx)
{
    VulkanPlan::Compiled c;
    c.graph = g;
    c.values.resize(g.nodes.size());
    c.parameters.resize(g.nodes.size());
    auto order = g.topologicalOrder();
    if (!order)
        return order.error();
    auto newSlot = [&c](std::uint64_t bytes) {
        c.slotBytes.push_back(bytes);
        return c.slotBytes.size() - 1;
    };
    auto newConstant = [&c, &newSlot](HostTensor t) {
        const std::size_t slot = newSlot(deviceBytes(t.dims(), t.dtype()));
        c.constants.emplace_back(slot, std::move(t));
        return slot;
    };
    for (std::size_t pos : *order) {
        const Node& n = g.nodes[pos];
        Value& v = c.values[pos];
        const OpKind kind = n.op.kind;
        if (kind == OpKind::Input || kind == OpKind::Param || kind == OpKind::Constant) {
            auto dims = resolvedDims(n, bindings);
            if (!dims)
                return dims.error();
            v.dims = *dims;
            v.dtype = n.shape.dtype;
            if (!held(v.dtype, ctx))
                return atNode(n, std::string(dtypeName(v.dtype)) + " tensors are not supported on Vulkan");
            v.slot = newSlot(deviceBytes(v.dims, v.dtype));
            if (kind == OpKind::Input) {
                c.inputs.push_back({n.id, n.displayName(), v.dims, v.dtype});
                continue;
            }
            auto t = parameterValues(n, v.dims);
            if (!t)
                return atNode(n, t.error().message);
            c.parameters[pos] = std::move(*t);
            continue;
        }
        LowerFn fn = findLowering(kind);
        if (!fn)
            return atNode(n, "the Vulkan backend has no kernel for " + n.op.label());
        Lowering l{n, bindings, ctx.properties().limits.maxStorageBufferRange, {}, {}, newSlot, newConstant, {}, false, {}};
        for (NodeId id : n.inputs) {
            auto ip = g.indexOf(id);
            if (!ip)
                return atNode(n, "input node " + std::to_string(id) + " does not exist");
            l.in.push_back(&c.values[*ip]);
            l.constants.push_back(c.parameters[*ip] ? &*c.parameters[*ip] : nullptr);
        }
        if (l.in.size() < requiredInputs(kind))
            return atNode(n, n.op.label() + " needs " + std::to_string(requiredInputs(kind)) + " inputs");
        for (const Value* in : l.in)
            if (in->dims.size() > kMaxRank)
                return atNode(n, "rank above " + std::to_string(kMaxRank) + " is not supported on Vulkan");
        if (auto r = fn(l); !r)
            return atNode(n, r.error().message);
        if (!held(l.out.dtype, ctx))
            return atNode(n, std::string(dtypeName(l.out.dtype)) + " results are not supported on Vulkan");
        // The shaders index with 32-bit integers.
        if (elementCount(l.out.dims) > static_cast<std::uint64_t>(INT32_MAX))
            return atNode(n, "a result of " + dimsString(l.out.dims) + " has more than 2^31 elements, not supported on Vulkan");
        if (l.view) {
            if (elementCount(l.out.dims) != elementCount(l.in[0]->dims))
                return atNode(n, "cannot view " + dimsString(l.in[0]->dims) + " as " + dimsString(l.out.dims));
            l.out.slot = l.in[0]->slot;
            l.out.dtype = l.in[0]->dtype;
        }
        v = l.out;
        c.steps.push_back({pos, std::move(l.dispatches)});
    }
    for (NodeId id : g.outputs)
        if (!g.indexOf(id))
            return Diagnostic::error("graph output " + std::to_string(id) + " does not exist");
    return c;
}
} // namespace

Result<std::shared_ptr<Instance>> VulkanBackend::instance() const
{
    std::lock_guard lock(m_mutex);
    if (!m_instance) {
        auto inst = Instance::create();
        if (!inst)
            return inst.error();
        m_instance = *inst;
    }
    return m_instance;
}

std::vector<DeviceInfo> VulkanBackend::devices() const
{
    auto inst = instance();
    return inst ? (*inst)->describeDevices() : std::vector<DeviceInfo>{};
}

Result<std::shared_ptr<Context>> VulkanBackend::context(DeviceIndex device)
{
    auto inst = instance();
    if (!inst)
        return inst.error();
    std::lock_guard lock(m_mutex);
    if (auto it = m_contexts.find(device); it != m_contexts.end())
        return it->second;
    auto ctx = Context::create(*inst, device);
    if (!ctx)
        return ctx.error();
    m_contexts[device] = *ctx;
    return *ctx;
}

Result<std::unique_ptr<ExecutablePlan>> VulkanBackend::compile(const Graph& g, const Bindings& bindings,
                                                               DeviceIndex device)
{
    // Fills of a constant shape are made once, here (ir/constant_fold.h).
    if (hasFoldableConstants(g))
        return compile(withConstantsFolded(g), bindings, device);
    // Shapes that follow from the bound input shapes alone are computed here (shape_fold.h): Vulkan runs no Shape.
    return compileWithShapesFolded(g, bindings,
                                   [&](const Graph& graph) { return compileAsGiven(graph, bindings, device); });
}

Result<std::unique_ptr<ExecutablePlan>> VulkanBackend::compileAsGiven(const Graph& g, const Bindings& bindings,
                                                                      DeviceIndex device)
{
    auto ctx = context(device);
    if (!ctx)
        return ctx.error();
    const CompileStraight straight = [context = *ctx](const Graph& graph,
                                                      const Bindings& b) -> Result<std::unique_ptr<ExecutablePlan>> {
        auto lowered = lowerGraph(graph, b, *context);
        if (!lowered)
            return lowered.error();
        auto plan = VulkanPlan::create(context, std::move(*lowered));
        if (!plan)
            return plan.error();
        return std::unique_ptr<ExecutablePlan>(std::move(*plan));
    };
    // If, Loop and Scan run on the host, their bodies and the stretches between them as Vulkan plans.
    if (hasControlFlow(g))
        return compileAroundControlFlow(g, bindings, straight);
    return straight(g, bindings);
}

} // namespace costscope::vk
