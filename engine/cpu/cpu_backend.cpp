// SPDX-License-Identifier: MIT
#include "cpu/cpu_backend.h"
#include "cpu/cpu_plan.h"
#include "cpu/onnx_named_kernels.h"
#include "cpu/sgemm.h"

#include <fstream>
#include <thread>
#include <unistd.h>

namespace costscope {

namespace {
std::string cpuModelName()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const std::size_t colon = line.find(':');
            if (colon != std::string::npos)
                return line.substr(line.find_first_not_of(' ', colon + 1));
        }
    return "host CPU";
}

std::uint64_t physicalMemory()
{
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) : 0;
}
} // namespace

CpuBackend::CpuBackend(unsigned threads)
    : m_pool(std::make_shared<cpu::ThreadPool>(threads ? threads : std::max(1u, std::thread::hardware_concurrency())))
{
}

CpuBackend::~CpuBackend() = default;

std::vector<DeviceInfo> CpuBackend::devices() const
{
    return {DeviceInfo{"cpu", 0, cpuModelName(), physicalMemory(), static_cast<int>(m_pool->size()), "", 0, 0}};
}

Result<std::unique_ptr<ExecutablePlan>> CpuBackend::compile(const Graph& g, const Bindings& bindings,
                                                            DeviceIndex device)
{
    if (device != 0)
        return Diagnostic::error("the CPU backend has one device (0), not " + std::to_string(device));
    auto order = g.topologicalOrder();
    if (!order)
        return order.error();
    std::vector<cpu::CpuPlan::Step> steps;
    std::vector<PlanInput> inputs;
    for (std::size_t pos : *order) {
        const Node& n = g.nodes[pos];
        auto nodeError = [&](const std::string& msg) {
            const std::string name = n.displayName();
            return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, name.empty() ? n.op.label() : name, msg);
        };
        auto kernel = cpu::kernelForNode(n);
        if (!kernel)
            return nodeError(kernel.error().message);
        cpu::CpuPlan::Step step{pos, *kernel, {}};
        for (NodeId id : n.inputs)
            step.inputs.push_back(*g.indexOf(id));
        if (n.op.kind == OpKind::Input) {
            PlanInput in{n.id, n.displayName(), {}, n.shape.dtype};
            for (const Dim& d : n.shape.dims) {
                auto v = d.resolve(bindings);
                if (!v || *v < 0)
                    return nodeError("input dim '" + d.toString() + "' is not bound (use --bind " + d.symbol + "=N)");
                in.dims.push_back(*v);
            }
            inputs.push_back(std::move(in));
        }
        steps.push_back(std::move(step));
    }
    for (NodeId id : g.outputs)
        if (!g.indexOf(id))
            return Diagnostic::error("graph output " + std::to_string(id) + " is not a node");
    return std::unique_ptr<ExecutablePlan>(
        std::make_unique<cpu::CpuPlan>(m_pool, g, bindings, std::move(steps), std::move(inputs)));
}

std::string cpuBackendFeatures()
{
    std::string s = std::string("sgemm: ") + cpu::sgemmImplementation();
#ifdef COSTSCOPE_HAVE_FFTW
    s += ", fft: FFTW";
#else
    s += ", fft: built-in DFT";
#endif
    return s;
}

} // namespace costscope
