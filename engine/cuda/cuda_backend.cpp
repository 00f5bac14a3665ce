// SPDX-License-Identifier: MIT
#include "cuda/cuda_backend.h"
#include "cuda/cuda_lower.h"

#include <cstdio>

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

bool isMatMulKind(OpKind k)
{
    return k == OpKind::MatMul || k == OpKind::Gemm || k == OpKind::FusedMatMulBiasAct;
}
} // namespace

Result<std::unique_ptr<ExecutablePlan>> CudaBackend::compile(const Graph& g, const Bindings& bindings,
                                                             DeviceIndex device)
{
    if (auto r = checkDevice(device); !r)
        return r.error();
    auto order = g.topologicalOrder();
    if (!order)
        return order.error();
    auto plan = std::make_unique<CudaPlan>(device, g, bindings, m_options);
    if (auto r = plan->createHandles(); !r)
        return r.error();
    const Graph& pg = plan->graph();
    std::vector<DeviceValue>& values = plan->values();
    for (std::size_t pos : *order) {
        const Node& n = pg.nodes[pos];
        DeviceValue& v = values[pos];
        v.dtype = n.shape.dtype;
        for (const Dim& d : n.shape.dims) {
            auto r = d.resolve(bindings);
            if (!r || *r < 0)
                return plan->atNode(pos, "dim '" + d.toString() + "' is not bound (the CUDA backend needs every "
                                             "node's shape; use --bind " + d.symbol + "=N)");
            v.dims.push_back(*r);
        }
        auto bytes = denseBytes(v.dims, v.dtype);
        if (!bytes)
            return plan->atNode(pos, "tensor size overflows: " + n.shape.toString());
        v.bytes = *bytes;
        const OpKind kind = n.op.kind;
        const bool leaf = kind == OpKind::Input || kind == OpKind::Param || kind == OpKind::Constant;
        const OpInfo& info = n.op.info();
        const auto count = static_cast<int>(n.inputs.size());
        if (!leaf && (count < info.minInputs || (info.maxInputs >= 0 && count > info.maxInputs) || count == 0))
            return plan->atNode(pos, n.op.label() + " takes " + std::to_string(info.minInputs) + ".."
                                         + (info.maxInputs < 0 ? std::string("any") : std::to_string(info.maxInputs))
                                         + " inputs, has " + std::to_string(count));
        cuda::LowerFn lower = leaf || cuda::isAliasOp(kind) ? nullptr : cuda::findLowering(kind);
        if (!leaf && !cuda::isAliasOp(kind) && !lower)
            return plan->atNode(pos, "the CUDA backend cannot run op " + n.op.label());
        std::vector<std::size_t> inPos;
        for (NodeId id : n.inputs)
            inPos.push_back(*pg.indexOf(id));
        if (cuda::isAliasOp(kind)) {
            const DeviceValue& src = values[inPos[0]];
            if (src.bytes != v.bytes || src.dtype != v.dtype)
                return plan->atNode(pos, n.op.label() + ": " + cuda::valueString(src) + " cannot become "
                                             + cuda::valueString(v));
            v.ptr = src.ptr;
            continue;
        }
        auto mem = plan->allocate(v.bytes, pos);
        if (!mem)
            return mem.error();
        v.ptr = *mem;
        if (kind == OpKind::Input) {
            plan->planInputs().push_back({n.id, n.displayName(), v.dims, v.dtype});
            continue;
        }
        if (leaf)
            continue;
        cuda::LowerContext ctx{*plan, pos, n, {}, inPos, v};
        for (std::size_t p : inPos)
            ctx.in.push_back(&values[p]);
        auto launch = lower(ctx);
        if (!launch)
            return plan->atNode(pos, launch.error().message);
        std::string label = n.op.label();
        if (isMatMulKind(kind))
            label += "[" + cuda::precisionName(m_options.precision) + "]";
        plan->steps().push_back({pos, std::move(label), std::move(*launch)});
    }
    for (NodeId id : g.outputs)
        if (!g.indexOf(id))
            return Diagnostic::error("graph output " + std::to_string(id) + " is not a node");
    return std::unique_ptr<ExecutablePlan>(std::move(plan));
}

} // namespace costscope
