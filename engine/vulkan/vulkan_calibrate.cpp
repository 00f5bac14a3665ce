// SPDX-License-Identifier: MIT
#include "vulkan/vulkan_calibrate.h"
#include "calibration/micro_graphs.h"
#include "vulkan/vk_memory.h"
#include "vulkan/vulkan_backend.h"

#include <algorithm>
#include <chrono>

namespace costscope {

namespace {
using Clock = std::chrono::steady_clock;
// Kernels of one shape timed in a row after a warm-up chain (see warmupGraph); the first of them is not counted.
constexpr int kInGraphRepeats = 4;
constexpr int kWarmupLength = 16;

Node leaf(NodeId id, OpKind kind, std::vector<std::int64_t> dims)
{
    Node n;
    n.id = id;
    n.op = Op::make(kind);
    n.shape = Shape::of(std::move(dims));
    return n;
}

Node opNode(NodeId id, OpKind kind, std::vector<NodeId> inputs, Attrs attrs = {})
{
    Node n;
    n.id = id;
    n.op = Op::make(kind, std::move(attrs));
    n.inputs = std::move(inputs);
    return n;
}

Attrs relu()
{
    Attrs a;
    a.set("op", std::string("Relu"));
    return a;
}

// A compiled plan with parameters uploaded and zero inputs set.
Result<std::unique_ptr<ExecutablePlan>> ready(vk::VulkanBackend& b, const Graph& g, DeviceIndex device)
{
    auto plan = b.compile(g, {}, device);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : (*plan)->inputs())
        inputs.emplace_back(in.dims, in.dtype);
    if (auto r = (*plan)->setInputs(inputs); !r)
        return r.error();
    return plan;
}

// Best GPU time (ns) of the node at `index` in the instrumented timings over the repeats.
Result<double> bestNodeNs(ExecutablePlan& plan, std::size_t index, int repeats)
{
    double best = 1e30;
    for (int i = 0; i < std::max(repeats, 1); ++i) {
        auto t = plan.runInstrumented();
        if (!t)
            return t.error();
        best = std::min(best, double(std::max<std::int64_t>((*t)[index].ns, 1)));
    }
    return best;
}

// The median GPU time of the nodes with ids in [first, last] over the repeats: the kernels of one shape timed in a
// stream of dispatches after the warm-up chain (a plain run's conditions).
Result<double> inGraphNodeNs(ExecutablePlan& plan, int repeats, NodeId first, NodeId last)
{
    std::vector<double> ns;
    for (int i = 0; i < std::max(repeats, 1); ++i) {
        auto t = plan.runInstrumented();
        if (!t)
            return t.error();
        for (const NodeTiming& n : *t)
            if (n.node >= first && n.node <= last)
                ns.push_back(double(std::max<std::int64_t>(n.ns, 1)));
    }
    if (ns.empty())
        return Diagnostic::error("calibration: no kernel was timed");
    std::nth_element(ns.begin(), ns.begin() + static_cast<std::ptrdiff_t>(ns.size() / 2), ns.end());
    return ns[ns.size() / 2];
}

template <class F>
Result<double> medianWallNs(int repeats, F f)
{
    std::vector<double> samples;
    for (int i = 0; i < std::max(repeats, 1); ++i) {
        const auto t0 = Clock::now();
        if (auto r = f(); !r)
            return r.error();
        samples.push_back(double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count()));
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

// Best GPU time of `copies` back-to-back vkCmdCopyBuffer of `bytes` (timestamps around them; wall time where the
// queue has no timestamps).
Result<double> bufferCopyNs(vk::VulkanBackend& b, DeviceIndex device, std::uint64_t bytes, int copies, int repeats)
{
    auto ctx = b.context(device);
    if (!ctx)
        return ctx.error();
    vk::Arena arena(*ctx);
    auto src = arena.allocate(bytes);
    if (!src)
        return src.error();
    auto dst = arena.allocate(bytes);
    if (!dst)
        return dst.error();
    auto commands = vk::Commands::create(*ctx);
    if (!commands)
        return commands.error();
    VkDevice dev = (*ctx)->device();
    VkQueryPool pool = VK_NULL_HANDLE;
    if ((*ctx)->timestampsSupported()) {
        auto qi = vk::vkInfo<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = 2;
        if (VkResult r = vkCreateQueryPool(dev, &qi, nullptr, &pool); r != VK_SUCCESS)
            return vk::vkError("vkCreateQueryPool", r);
    }
    double best = 1e30;
    Result<bool> status = true;
    for (int i = 0; i < std::max(repeats, 1) && status; ++i) {
        auto cmd = (*commands)->begin();
        if (!cmd) {
            status = cmd.error();
            break;
        }
        if (pool) {
            vkCmdResetQueryPool(*cmd, pool, 0, 2);
            vkCmdWriteTimestamp(*cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
        }
        VkBufferCopy region{src->offset, dst->offset, bytes};
        for (int c = 0; c < copies; ++c)
            vkCmdCopyBuffer(*cmd, src->buffer, dst->buffer, 1, &region);
        if (pool)
            vkCmdWriteTimestamp(*cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
        const auto t0 = Clock::now();
        status = (*commands)->submitAndWait();
        double ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        std::uint64_t stamps[2] = {0, 0};
        if (status && pool
            && vkGetQueryPoolResults(dev, pool, 0, 2, sizeof(stamps), stamps, 8,
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS
            && stamps[1] > stamps[0])
            ns = double(stamps[1] - stamps[0]) * (*ctx)->timestampPeriodNs();
        best = std::min(best, ns);
    }
    if (pool)
        vkDestroyQueryPool(dev, pool, nullptr);
    if (!status)
        return status.error();
    return best;
}
} // namespace

Result<VulkanCalibration> calibrateVulkan(const VulkanCalibrationOptions& o)
{
    vk::VulkanBackend backend;
    auto devices = backend.devices();
    if (o.device < 0 || static_cast<std::size_t>(o.device) >= devices.size())
        return Diagnostic::error("no Vulkan device " + std::to_string(o.device));
    VulkanCalibration c;
    c.device = devices[static_cast<std::size_t>(o.device)].name;
    const int total = static_cast<int>(o.matmulSizes.size() * (o.squareOnly ? 1 : 2) + o.convLayers.size()) + 3;
    int done = 0;
    // After each figure: progress, and an error when the caller cancelled.
    const auto figureDone = [&](int figures = 1) -> Result<bool> {
        done += figures;
        if (o.progress)
            o.progress(done, total);
        if (o.cancel && o.cancel->load(std::memory_order_relaxed))
            return Diagnostic::error("calibration cancelled");
        return true;
    };

    for (std::int64_t s : o.matmulSizes)
        for (std::int64_t k : {s, std::max<std::int64_t>(s / 4, 1)}) {
            if (o.squareOnly && k != s)
                continue;
            // Several products of the same operands in a row after the warm-up, each timed after the first.
            Graph g = warmupGraph(o.warmupElements, kWarmupLength);
            g.add(leaf(0, OpKind::Input, {s, k}));
            g.add(leaf(1, OpKind::Input, {k, s}));
            for (NodeId id = 2; id < 2 + kInGraphRepeats; ++id) {
                g.add(opNode(id, OpKind::MatMul, {0, 1}));
                g.outputs.push_back(id);
            }
            auto plan = ready(backend, g, o.device);
            if (!plan)
                return plan.error();
            auto ns = inGraphNodeNs(**plan, o.repeats, 3, 1 + kInGraphRepeats);
            if (!ns)
                return ns.error();
            c.matmul.push_back({s, k, s, 2.0 * double(s) * double(k) * double(s) / *ns});
            if (auto r = figureDone(); !r)
                return r.error();
        }
    for (const ConvLayer& layer : o.convLayers) {
        auto conv = timeConvLayers(backend, o.device, {&layer, 1}, std::max(o.repeats / 2, 3), kInGraphRepeats,
                                   o.warmupElements);
        if (!conv)
            return conv.error();
        c.conv.insert(c.conv.end(), conv->begin(), conv->end());
        if (auto r = figureDone(); !r)
            return r.error();
    }

    const std::int64_t n = o.copyElements;
    const double bytes = 2.0 * 4.0 * double(n);
    {
        Graph g;
        g.add(leaf(0, OpKind::Input, {n}));
        Attrs perm;
        perm.set("perm", std::vector<std::int64_t>{0});
        g.add(opNode(1, OpKind::Transpose, {0}, perm));
        g.add(opNode(2, OpKind::Activation, {0}, relu()));
        g.outputs = {1, 2};
        auto plan = ready(backend, g, o.device);
        if (!plan)
            return plan.error();
        auto copy = bestNodeNs(**plan, 0, o.repeats);
        auto elementwise = bestNodeNs(**plan, 1, o.repeats);
        if (!copy || !elementwise)
            return (!copy ? copy : elementwise).error();
        c.copyGBps = bytes / *copy;
        c.elementwiseGBps = bytes / *elementwise;
        auto read = medianWallNs(o.repeats, [&]() -> Result<bool> {
            auto out = (*plan)->readOutputs();
            if (!out)
                return out.error();
            return true;
        });
        if (!read)
            return read.error();
        c.readbackGBps = 2.0 * 4.0 * double(n) / *read; // two outputs of n floats
    }
    if (auto r = figureDone(); !r)
        return r.error();
    auto bufferCopy = bufferCopyNs(backend, o.device, static_cast<std::uint64_t>(n) * 4, 10, o.repeats);
    if (!bufferCopy)
        return bufferCopy.error();
    c.bufferCopyGBps = 10.0 * bytes / *bufferCopy;
    if (auto r = figureDone(); !r)
        return r.error();

    // A chain of tiny Relu dispatches against a single one: the difference is the per-dispatch cost.
    auto chainNs = [&](int length) -> Result<double> {
        Graph g;
        g.add(leaf(0, OpKind::Input, {64}));
        for (int i = 1; i <= length; ++i)
            g.add(opNode(i, OpKind::Activation, {i - 1}, relu()));
        g.outputs = {length};
        auto plan = ready(backend, g, o.device);
        if (!plan)
            return plan.error();
        return medianWallNs(o.repeats * 2, [&] { return (*plan)->run(); });
    };
    auto one = chainNs(1);
    auto many = chainNs(101);
    if (!one || !many)
        return (!one ? one : many).error();
    c.roundtripUs = *one / 1e3;
    c.dispatchOverheadUs = std::max(0.0, (*many - *one) / 100.0 / 1e3);
    if (auto r = figureDone(); !r)
        return r.error();
    return c;
}

VulkanCalibrationOptions vulkanCalibrationOptions(bool quick, DeviceIndex device)
{
    VulkanCalibrationOptions o;
    o.device = device;
    if (quick) {
        o.matmulSizes = {64, 128, 256};
        o.copyElements = std::int64_t(1) << 20;
        o.warmupElements = std::int64_t(1) << 16;
        o.repeats = 3;
        const auto layers = quickConvLayers();
        o.convLayers.assign(layers.begin(), layers.end());
    } else {
        o.matmulSizes = {128, 256, 512, 1024, 2048, 4096};
        o.copyElements = std::int64_t(1) << 24;
        const auto layers = typicalConvLayers();
        o.convLayers.assign(layers.begin(), layers.end());
    }
    return o;
}

} // namespace costscope
