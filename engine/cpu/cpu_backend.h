// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

namespace costscope {

namespace cpu {
class ThreadPool;
}

// Runs graphs on the host: one device (all cores), a thread pool for data-parallel kernels, a built-in packed sgemm
// for matrix products (deterministic; see cpu/sgemm.h) and FFTW for Fft where the build found it.
class CpuBackend : public Backend {
public:
    explicit CpuBackend(unsigned threads = 0); // 0: every hardware thread
    ~CpuBackend() override;
    std::string name() const override { return "cpu"; }
    std::vector<DeviceInfo> devices() const override;
    Result<std::unique_ptr<ExecutablePlan>> compile(const Graph& g, const Bindings& bindings,
                                                    DeviceIndex device) override;

private:
    std::shared_ptr<cpu::ThreadPool> m_pool;
};

// What the CPU backend runs with, for feature summaries: its sgemm kernel, "FFTW" or "built-in DFT".
std::string cpuBackendFeatures();

} // namespace costscope
