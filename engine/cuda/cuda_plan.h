// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "cuda/cuda_options.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace costscope::cuda {

// One device allocation, freed with the plan.
struct DeviceMemory {
    void* ptr = nullptr;
    std::size_t bytes = 0;
    DeviceMemory() = default;
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;
    ~DeviceMemory();
};

// A node's value on the device. Reshape-like nodes alias their input's memory.
struct DeviceValue {
    std::vector<std::int64_t> dims;
    DType dtype = DType::F32;
    void* ptr = nullptr;
    std::size_t bytes = 0;
    std::uint64_t elements() const;
};

using Launch = std::function<void(cudaStream_t)>;

// The workspace a plan gives cuBLAS and cuBLASLt: cuBLAS needs a user workspace to run inside stream capture
// without allocating.
inline constexpr std::size_t kLibraryWorkspaceBytes = std::size_t(32) << 20;

// A graph compiled for one GPU: every node's buffer is allocated and every launch fixed at compile time, so the
// plain run replays a CUDA graph captured on the first run (one launch for the whole graph). The instrumented run
// replays a second CUDA graph with an event recorded after each node, so that nodes run as in the plain run with no
// host launch between them; each event node still adds about 1 to 3.5 us on an H200 (docs/gpu-results.md). Where a
// driver cannot capture events it launches node by node instead (runEager).
class CudaPlan : public ExecutablePlan {
public:
    // One kernel (or library call) of the plan: a node's, or a fusion group's at its exit node.
    struct Step {
        std::size_t node = 0;
        std::string label;
        Launch launch;
        std::vector<std::size_t> fused = {}; // the group's other members (positions), inputs first
    };

    CudaPlan(int device, Graph graph, Bindings bindings, CudaOptions options);
    ~CudaPlan() override;
    CudaPlan(const CudaPlan&) = delete;
    CudaPlan& operator=(const CudaPlan&) = delete;

    // Set-up used by the backend's compile step.
    Result<bool> createHandles();
    // Allocates `bytes` for node position `node` (0 bytes allocate nothing); the error names the node.
    Result<void*> allocate(std::size_t bytes, std::size_t node);
    std::vector<DeviceValue>& values() { return m_values; }
    std::vector<Step>& steps() { return m_steps; }
    std::vector<PlanInput>& planInputs() { return m_inputs; }
    cublasHandle_t cublas() const { return m_cublas; }
    cublasLtHandle_t cublasLt() const { return m_cublasLt; }
    // The workspace cuBLAS and cuBLASLt share (their calls are ordered on the plan's one stream).
    void* libraryWorkspace() const { return m_cublasWorkspace.ptr; }
    std::size_t libraryWorkspaceBytes() const { return m_cublasWorkspace.bytes; }
    const CudaOptions& options() const { return m_options; }
    // The plan's one stream (compile-time work such as lt_autotune.h's timing runs on it too).
    cudaStream_t stream() const { return m_stream; }
    // A launch run once on the plan's stream each time the parameters are uploaded, after them: work on weights
    // that every run would otherwise repeat (an fp8 weight transposed into the layout its product reads).
    void addUploadStep(Launch l) { m_uploadSteps.push_back(std::move(l)); }
    // Keeps a cuFFT plan alive for the plan's lifetime.
    void adoptFftPlan(cufftHandle h) { m_fftPlans.push_back(h); }
    const Graph& graph() const { return m_graph; }
    const Bindings& bindings() const { return m_bindings; }
    // A check made after every run once the stream synchronized, for what a step cannot report through the stream:
    // a host step's failure (cuda/lower_host_fallback.cpp). Each check forgets what it reported.
    void addRunCheck(std::function<Result<bool>()> check) { m_runChecks.push_back(std::move(check)); }
    // cuDNN's handle and SDPA graphs (cudnn_sdpa.cpp), opaque here so that this header needs no cuDNN header; the
    // launches that use them hold them too.
    std::shared_ptr<void>& cudnnState() { return m_cudnnState; }
    // The graph was widened from fp16/bf16/fp8 to F32: inputs of those dtypes are accepted and widened too.
    void setWidensInputs(bool on) { m_widensInputs = on; }
    Diagnostic atNode(std::size_t node, const std::string& message) const;

    Result<bool> uploadParameters() override;
    Result<bool> setInputs(const std::vector<HostTensor>& inputs) override;
    Result<bool> run(const std::atomic<bool>* cancel) override;
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>* cancel) override;
    // Each node launched on its own with events between them: per-node times including the launch overhead that
    // the CUDA graph removes.
    Result<std::vector<NodeTiming>> runEager(const std::atomic<bool>* cancel);
    Result<std::vector<HostTensor>> readOutputs() const override;

private:
    Result<bool> ready() const;
    // Queues a copy of `t`'s bytes to `device` on the plan's stream (the caller synchronizes it).
    cudaError_t uploadOnStream(void* device, const HostTensor& t) const;
    Result<bool> capture();
    Result<bool> ensureEvents();
    Result<bool> captureTimed();
    std::vector<NodeTiming> timings() const;
    // The run's outcome once the stream synchronized with status `e`: `what` and the CUDA error, else the first run
    // check's error. Every check runs, so that none keeps this run's failure for the next.
    Result<bool> finishRun(cudaError_t e, const std::string& what);

    int m_device = 0;
    Graph m_graph;
    Bindings m_bindings;
    CudaOptions m_options;
    std::vector<DeviceValue> m_values; // one per graph node
    std::vector<Step> m_steps;
    std::vector<Launch> m_uploadSteps;
    std::vector<std::function<Result<bool>()>> m_runChecks;
    std::vector<std::unique_ptr<DeviceMemory>> m_memory;
    std::vector<cufftHandle> m_fftPlans;
    std::shared_ptr<void> m_cudnnState;
    cudaStream_t m_stream = nullptr;
    cublasHandle_t m_cublas = nullptr;
    cublasLtHandle_t m_cublasLt = nullptr;
    DeviceMemory m_cublasWorkspace;
    cudaGraphExec_t m_graphExec = nullptr;
    std::vector<cudaEvent_t> m_events; // before the first node, then after each node
    cudaGraphExec_t m_timedExec = nullptr;
    bool m_timedUnavailable = false;
    bool m_parametersReady = false;
    bool m_inputsReady = false;
    bool m_widensInputs = false;
};

// "CUDA error 2 (out of memory)" style text for a runtime status.
std::string cudaErrorText(cudaError_t e);

} // namespace costscope::cuda
