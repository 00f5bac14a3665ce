// SPDX-License-Identifier: MIT
#include "cpu/cpu_backend.h"
#include "cpu/cpu_plan.h"
#include "cpu/onnx_named_kernels.h"
#include "cpu/sgemm.h"
#include "ir/constant_fold.h"

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
    : m_pool(std::make_shared<cpu::ThreadPool>(threads ? threads : cpu::usableCores()))
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
    // Fills of a constant shape are made once, here (ir/constant_fold.h).
    if (hasFoldableConstants(g))
        return compile(withConstantsFolded(g), bindings, device);
    return cpu::compilePlan(m_pool, g, bindings);
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
