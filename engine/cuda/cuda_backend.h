// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "cuda/cuda_options.h"

namespace costscope {

// The CUDA backend ("cuda"): one device per local GPU. Without a driver or a GPU it lists no devices and
// compile() says why, so the app and CLI keep working.
class CudaBackend : public Backend {
public:
    explicit CudaBackend(cuda::CudaOptions options = {});

    std::string name() const override { return "cuda"; }
    std::vector<DeviceInfo> devices() const override;
    // Every node's shape must resolve with the bindings (buffers and launches are fixed at compile time);
    // out-of-memory names the node and the bytes.
    Result<std::unique_ptr<ExecutablePlan>> compile(const Graph& g, const Bindings& bindings,
                                                    DeviceIndex device) override;

    const cuda::CudaOptions& options() const { return m_options; }

private:
    // compile() once the graph's constants and shapes are folded.
    Result<std::unique_ptr<ExecutablePlan>> compileAsGiven(const Graph& g, const Bindings& bindings,
                                                           DeviceIndex device);
    cuda::CudaOptions m_options;
};

} // namespace costscope
