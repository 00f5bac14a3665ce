// SPDX-License-Identifier: MIT
#include "cuda/cuda_backend.h"
#include "control_flow_plan.h"
#include "cuda/compute_capability.h"
#include "cuda/cuda_gemm.h"
#include "cuda/cuda_lower.h"
#include "cuda/fused_kernels.h"
#include "cuda/host_fallback.h"
#include "cuda/lower_fp8_matmul.h"
#include "cuda/narrow_native.h"
#include "ir/constant_fold.h"
#include "narrow_float_casts.h"
#include "shape_fold.h"
#include "widen_to_f32.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

namespace costscope {

using cuda::CudaPlan;
using cuda::DeviceValue;

CudaBackend::CudaBackend(cuda::CudaOptions options) : m_options(options) {}

std::vector<DeviceInfo> CudaBackend::devices() const
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return {};
    }
    std::vector<DeviceInfo> out;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess)
            continue;
        // CUDA 13 dropped the clocks from cudaDeviceProp; the attributes still give them (in kHz).
        int clockKHz = 0, memoryClockKHz = 0;
        cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, i);
        cudaDeviceGetAttribute(&memoryClockKHz, cudaDevAttrMemoryClockRate, i);
        cudaGetLastError();
        char busId[32] = {};
        std::snprintf(busId, sizeof busId, "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
        out.push_back({"cuda", i, prop.name, static_cast<std::uint64_t>(prop.totalGlobalMem), prop.multiProcessorCount,
                       busId, clockKHz / 1000, memoryClockKHz / 1000});
    }
    return out;
}

namespace {
Result<bool> checkDevice(DeviceIndex device)
{
    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
        cudaGetLastError();
        return Diagnostic::error("no CUDA device: " + std::string(cudaGetErrorString(e)));
    }
    if (count == 0)
        return Diagnostic::error("no CUDA device: the driver reports none");
    if (device < 0 || device >= count)
        return Diagnostic::error("CUDA device " + std::to_string(device) + " does not exist (there are "
                                 + std::to_string(count) + ")");
    return true;
}

// Bytes of a dense tensor; nullopt on overflow.
std::optional<std::size_t> denseBytes(const std::vector<std::int64_t>& dims, DType dtype)
{
    std::uint64_t n = byteSize(dtype);
    for (std::int64_t d : dims)
        if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(d), &n))
            return std::nullopt;
    return static_cast<std::size_t>(n);
}

// The fp8 GEMMs of g that run widened, with why (cuda/fp8_dispatch.h), cuBLASLt asked about the others.
std::map<NodeId, std::string> fp8Fallbacks(const Graph& g, const Bindings& bindings, DeviceIndex device)
{
    cublasLtHandle_t handle = nullptr;
    auto library = [&](const cuda::Fp8GemmLayout& l) -> std::optional<std::string> {
        if (!handle && cublasLtCreate(&handle) != CUBLAS_STATUS_SUCCESS)
            return "cannot initialise cuBLASLt";
        auto product = cuda::Fp8Matmul::create(handle, cuda::fp8ProductOf(l), cuda::kLibraryWorkspaceBytes);
        return product ? std::nullopt : std::optional<std::string>(product.error().message);
    };
    auto out = cuda::fp8GemmFallbacks(g, bindings, cuda::computeCapability(device), library);
    if (handle)
        cublasLtDestroy(handle);
    return out;
}

bool isMatMulKind(OpKind k)
{
    return k == OpKind::MatMul || k == OpKind::Gemm || k == OpKind::FusedMatMulBiasAct;
}

// Sets the value's dims and bytes from the node's shape; the error names the node.
Result<bool> resolveValue(CudaPlan& plan, std::size_t pos, const Bindings& bindings)
{
    const Node& n = plan.graph().nodes[pos];
    DeviceValue& v = plan.values()[pos];
    v.dtype = n.shape.dtype;
    for (const Dim& d : n.shape.dims) {
        auto r = d.resolve(bindings);
        if (!r || *r < 0) {
            const std::string hint = "the CUDA backend needs every node's shape; use --bind " + d.symbol + "=N";
            return plan.atNode(pos, "dim '" + d.toString() + "' is not bound (" + hint + ")");
        }
        v.dims.push_back(*r);
    }
    auto bytes = denseBytes(v.dims, v.dtype);
    if (!bytes)
        return plan.atNode(pos, "tensor size overflows: " + n.shape.toString());
    v.bytes = *bytes;
    return true;
}

Result<bool> allocateValue(CudaPlan& plan, std::size_t pos)
{
    DeviceValue& v = plan.values()[pos];
    auto mem = plan.allocate(v.bytes, pos);
    if (!mem)
        return mem.error();
    v.ptr = *mem;
    return true;
}

// One step for one node through its lowering.
Result<bool> lowerNode(CudaPlan& plan, std::size_t pos, cuda::LowerFn lower)
{
    const Graph& g = plan.graph();
    const Node& n = g.nodes[pos];
    std::vector<std::size_t> inPos;
    for (NodeId id : n.inputs)
        inPos.push_back(*g.indexOf(id));
    cuda::LowerContext ctx{plan, pos, n, {}, inPos, plan.values()[pos]};
    for (std::size_t p : inPos)
        ctx.in.push_back(&plan.values()[p]);
    auto launch = lower(ctx);
    // A CUDA kernel that refuses this node (a dtype, an attribute or an input it does not take) leaves it to the CPU
    // backend's kernel on the host where that applies, as a node without any CUDA kernel does; the label says so.
    if (!launch && lower != cuda::lowerHostFallback
        && !cuda::hostFallbackRefusal(n, true, cuda::hostFallbackRequested())) {
        ctx.kernel.clear();
        auto host = cuda::lowerHostFallback(ctx);
        if (!host)
            return plan.atNode(pos, launch.error().message + " (and the host fallback failed: " + host.error().message
                                        + ")");
        launch = std::move(host);
    }
    if (!launch)
        return plan.atNode(pos, launch.error().message);
    std::string label = n.op.label();
    const DType a = ctx.in.empty() ? n.shape.dtype : ctx.in[0]->dtype;
    const DType b = ctx.in.size() < 2 ? a : ctx.in[1]->dtype;
    if (isMatMulKind(n.op.kind))
        label += "["
                 + (isFp8(a) || isFp8(b) ? cuda::fp8GemmName(a, b, n.shape.dtype)
                                         : cuda::gemmModeName(plan.options().precision, n.shape.dtype))
                 + "]";
    if (!ctx.kernel.empty())
        label += "[" + ctx.kernel + "]";
    plan.steps().push_back({pos, std::move(label), std::move(*launch)});
    return true;
}

// One step for a fusion group at its exit; where the group cannot run as one kernel, its members one by one, after
// the slices of q, k and v that were left to be read in place (`view`) have run after all.
Result<bool> lowerGroup(CudaPlan& plan, const FusionGroup& group, const QkvView* view)
{
    std::string label;
    if (auto launch = cuda::lowerFusionGroup(plan, group, &label, view)) {
        std::vector<std::size_t> others(group.members.begin(), group.members.end() - 1);
        plan.steps().push_back({group.exit(), std::move(label), std::move(*launch), std::move(others)});
        return true;
    }
    std::vector<DeviceValue>& values = plan.values();
    for (const auto& chain : view ? view->chain : std::array<std::vector<std::size_t>, 3>{}) {
        const std::size_t slice = chain.front();
        if (!values[slice].ptr) {
            if (auto r = allocateValue(plan, slice); !r)
                return r;
            if (auto r = lowerNode(plan, slice, cuda::findLowering(plan.graph().nodes[slice].op.kind)); !r)
                return r;
        }
        for (std::size_t p : chain)
            values[p].ptr = values[slice].ptr;
    }
    for (std::size_t m : group.members) {
        if (m != group.exit())
            if (auto r = allocateValue(plan, m); !r)
                return r;
        if (auto r = lowerNode(plan, m, cuda::findLowering(plan.graph().nodes[m].op.kind)); !r)
            return r;
    }
    return true;
}
} // namespace

Result<std::unique_ptr<ExecutablePlan>> CudaBackend::compile(const Graph& g, const Bindings& bindings,
                                                             DeviceIndex device)
{
    if (auto r = checkDevice(device); !r)
        return r.error();
    // Fills of a constant shape are made once, here (ir/constant_fold.h).
    if (hasFoldableConstants(g))
        return compile(withConstantsFolded(g), bindings, device);
    // Shapes that follow from the bound input shapes alone are computed here (shape_fold.h).
    return compileWithShapesFolded(g, bindings,
                                   [&](const Graph& graph) { return compileAsGiven(graph, bindings, device); });
}

Result<std::unique_ptr<ExecutablePlan>> CudaBackend::compileAsGiven(const Graph& g, const Bindings& bindings,
                                                                    DeviceIndex device)
{
    // If, Loop and Scan run on the host, their bodies and the stretches between them as CUDA plans of their own
    // (compiled by a copy of this backend: a body is compiled again while the plan runs).
    if (hasControlFlow(g))
        return compileAroundControlFlow(
            g, bindings,
            [options = m_options, fusion = m_compileOptions, device](const Graph& graph, const Bindings& b) {
                CudaBackend straight(options);
                straight.setCompileOptions(fusion);
                return straight.compile(graph, b, device);
            });
    if (auto order = g.topologicalOrder(); !order)
        return order.error();
    // fp16/bf16 ops with a 16-bit lowering, and fp8 GEMMs the GPU runs as FP8 products, keep their dtype; the others
    // run in F32 between Casts (narrow_float_casts.h, cuda/narrow_native.h), an fp8 GEMM's reason kept in its label.
    // Where COSTSCOPE_CUDA_NATIVE_16BIT=0 every narrow graph runs by conversion: widened once here (widen_to_f32.h
    // says what that changes), its narrow inputs widened as they are set.
    const bool narrow = hasNarrowFloats(g);
    const bool widen = narrow && !cuda::nativeSixteenBitRequested();
    std::map<NodeId, std::string> fp8Widened;
    if (narrow && !widen)
        fp8Widened = fp8Fallbacks(g, bindings, device);
    Graph planned = !narrow ? g : widen ? widenedToF32(g) : withNarrowFloatCasts(g, cuda::narrowNativeRule(fp8Widened));
    auto plan = std::make_unique<CudaPlan>(device, std::move(planned), bindings, m_options);
    plan->setWidensInputs(widen);
    if (auto r = plan->createHandles(); !r)
        return r.error();
    const Graph& pg = plan->graph();
    auto order = pg.topologicalOrder(); // the planned graph's positions: the Casts are nodes of their own
    if (!order)
        return order.error();
    FusionPlan fusion;
    fusion.groupOf.assign(pg.nodes.size(), -1);
    if (m_compileOptions.fusion) {
        FusionOptions o;
        o.maxInputs = cuda::kMaxFusedInputs;
        o.maxOps = cuda::kMaxFusedOps;
        o.attention = cuda::fusedAttentionRequested();
        o.sixteenBit = true; // the kernels load and store F16/BF16 (a widened graph has none left)
        fusion = planFusion(pg, bindings, o);
    }
    // Attention reading q, k and v in place from the packed QKV tensor (cuDNN's SDPA, or our kernels: both take row
    // strides): the slices only it reads do not run (where 16-bit attention that cuDNN would take dense refuses in
    // place, the attention step copies them itself: cuda_lower.h).
    const QkvViewPlan views = m_compileOptions.fusion && cuda::qkvViewsRequested()
                                  ? planQkvViews(pg, bindings, fusion, {DType::F32, DType::F16, DType::BF16})
                                  : QkvViewPlan{};
    std::vector<DeviceValue>& values = plan->values();
    const bool hostFallbacks = cuda::hostFallbackRequested();
    for (std::size_t pos : *order) {
        const Node& n = pg.nodes[pos];
        const OpKind kind = n.op.kind;
        const bool leaf = kind == OpKind::Input || kind == OpKind::Param || kind == OpKind::Constant;
        // A node without a CUDA kernel runs the CPU backend's on the host where it can (cuda/host_fallback.h).
        const bool onHost = !leaf && !cuda::isAliasOp(kind) && !cuda::cudaLowers(n);
        auto resolved = resolveValue(*plan, pos, bindings);
        if (onHost)
            if (auto why = cuda::hostFallbackRefusal(n, bool(resolved), hostFallbacks))
                return plan->atNode(pos, "the CUDA backend cannot run op " + n.op.label()
                                             + ", and no host fallback applies: " + *why
                                             + (resolved ? "" : " (" + resolved.error().message + ")"));
        if (!resolved)
            return resolved.error();
        DeviceValue& v = values[pos];
        const OpInfo& info = n.op.info();
        const auto count = static_cast<int>(n.inputs.size());
        if (!leaf && (count < info.minInputs || (info.maxInputs >= 0 && count > info.maxInputs) || count == 0))
            return plan->atNode(pos, n.op.label() + " takes " + std::to_string(info.minInputs) + ".."
                                         + (info.maxInputs < 0 ? std::string("any") : std::to_string(info.maxInputs))
                                         + " inputs, has " + std::to_string(count));
        cuda::LowerFn lower = leaf || cuda::isAliasOp(kind) ? nullptr
                              : onHost                      ? cuda::lowerHostFallback
                                                            : cuda::findLowering(kind);
        if (cuda::isAliasOp(kind)) {
            const DeviceValue& src = values[*pg.indexOf(n.inputs[0])];
            if (src.bytes != v.bytes || src.dtype != v.dtype)
                return plan->atNode(pos, n.op.label() + ": " + cuda::valueString(src) + " cannot become "
                                             + cuda::valueString(v));
            v.ptr = src.ptr;
            continue;
        }
        if (fusion.isInternal(pos) || views.isSkipped(pos))
            continue; // its value never leaves the group's kernel, or the group reads it in place
        if (auto r = allocateValue(*plan, pos); !r)
            return r.error();
        if (kind == OpKind::Input) {
            plan->planInputs().push_back({n.id, n.displayName(), v.dims, v.dtype});
            continue;
        }
        if (leaf)
            continue;
        const auto group = std::size_t(fusion.groupOf[pos]);
        auto r = fusion.isFused(pos) ? lowerGroup(*plan, fusion.groups[group], views.viewFor(group))
                                     : lowerNode(*plan, pos, lower);
        if (!r)
            return r.error();
    }
    for (NodeId id : g.outputs)
        if (!g.indexOf(id))
            return Diagnostic::error("graph output " + std::to_string(id) + " is not a node");
    for (CudaPlan::Step& step : plan->steps())
        if (auto it = fp8Widened.find(pg.nodes[step.node].id); it != fp8Widened.end())
            step.label += " (fp8 widened: " + it->second + ")";
    return std::unique_ptr<ExecutablePlan>(std::move(plan));
}

} // namespace costscope
