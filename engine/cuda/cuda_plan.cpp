// SPDX-License-Identifier: MIT
#include "cuda/cuda_plan.h"
#include "synthetic.h"
#include "widen_to_f32.h"

#include <cstring>
#include <optional>

namespace costscope::cuda {

std::string cudaErrorText(cudaError_t e)
{
    return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

std::string precisionName(MatMulPrecision p)
{
    switch (p) {
    case MatMulPrecision::F32: return "fp32";
    case MatMulPrecision::TF32: return "tf32";
    case MatMulPrecision::BF16: return "bf16";
    }
    return "fp32";
}

DeviceMemory::~DeviceMemory()
{
    if (ptr)
        cudaFree(ptr);
}

std::uint64_t DeviceValue::elements() const
{
    std::uint64_t n = 1;
    for (std::int64_t d : dims)
        n *= static_cast<std::uint64_t>(d);
    return n;
}

CudaPlan::CudaPlan(int device, Graph graph, Bindings bindings, CudaOptions options)
    : m_device(device), m_graph(std::move(graph)), m_bindings(std::move(bindings)), m_options(options)
{
    m_values.resize(m_graph.nodes.size());
}

CudaPlan::~CudaPlan()
{
    cudaSetDevice(m_device);
    if (m_stream)
        cudaStreamSynchronize(m_stream);
    // The launches hold library state bound to the stream (cuDNN's handle, cudnn_sdpa.cpp): released before it.
    m_steps.clear();
    m_cudnnState.reset();
    if (m_graphExec)
        cudaGraphExecDestroy(m_graphExec);
    if (m_timedExec)
        cudaGraphExecDestroy(m_timedExec);
    for (cudaEvent_t ev : m_events)
        if (ev)
            cudaEventDestroy(ev);
    for (cufftHandle h : m_fftPlans)
        cufftDestroy(h);
    if (m_cublas)
        cublasDestroy(m_cublas);
    if (m_cublasLt)
        cublasLtDestroy(m_cublasLt);
    if (m_stream)
        cudaStreamDestroy(m_stream);
}

Diagnostic CudaPlan::atNode(std::size_t node, const std::string& message) const
{
    const Node& n = m_graph.nodes[node];
    const std::string name = n.displayName();
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, name.empty() ? n.op.label() : name, message);
}

Result<bool> CudaPlan::createHandles()
{
    if (cudaError_t e = cudaSetDevice(m_device); e != cudaSuccess)
        return Diagnostic::error("cannot select CUDA device " + std::to_string(m_device) + ": " + cudaErrorText(e));
    if (cudaError_t e = cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking); e != cudaSuccess)
        return Diagnostic::error("cannot create a CUDA stream: " + cudaErrorText(e));
    if (cublasCreate(&m_cublas) != CUBLAS_STATUS_SUCCESS)
        return Diagnostic::error("cannot initialise cuBLAS");
    if (cublasLtCreate(&m_cublasLt) != CUBLAS_STATUS_SUCCESS)
        return Diagnostic::error("cannot initialise cuBLASLt");
    if (cudaMalloc(&m_cublasWorkspace.ptr, kLibraryWorkspaceBytes) != cudaSuccess)
        return Diagnostic::error("out of GPU memory allocating the cuBLAS workspace");
    m_cublasWorkspace.bytes = kLibraryWorkspaceBytes;
    cublasSetStream(m_cublas, m_stream);
    cublasSetWorkspace(m_cublas, m_cublasWorkspace.ptr, kLibraryWorkspaceBytes);
    return true;
}

Result<void*> CudaPlan::allocate(std::size_t bytes, std::size_t node)
{
    if (bytes == 0)
        return static_cast<void*>(nullptr);
    auto mem = std::make_unique<DeviceMemory>();
    if (cudaError_t e = cudaMalloc(&mem->ptr, bytes); e != cudaSuccess) {
        cudaGetLastError(); // clear the sticky-free allocation error so later calls work
        mem->ptr = nullptr;
        if (e == cudaErrorMemoryAllocation)
            return atNode(node, "out of GPU memory allocating " + std::to_string(bytes) + " bytes for node "
                                    + std::to_string(m_graph.nodes[node].id));
        return atNode(node, "cannot allocate " + std::to_string(bytes) + " bytes: " + cudaErrorText(e));
    }
    mem->bytes = bytes;
    void* p = mem->ptr;
    m_memory.push_back(std::move(mem));
    return p;
}

// A copy from pageable host memory, ordered on the plan's stream. A plain cudaMemcpy runs on the legacy default
// stream, which the plan's non-blocking stream does not wait for, and may return before its DMA lands ("the DMA to
// final destination may not have completed", CUDA's API synchronization notes): a graph launched next could read
// the buffer before it held the upload. On an H200, host-fallback steps (whose first work is a device-to-host copy
// of their inputs) computed on zeros or partly written inputs in about half of the conformance cases that use them.
// The caller synchronizes the stream once all copies are queued.
cudaError_t CudaPlan::uploadOnStream(void* device, const HostTensor& t) const
{
    return cudaMemcpyAsync(device, t.bytes(), t.byteSize(), cudaMemcpyHostToDevice, m_stream);
}

Result<bool> CudaPlan::uploadParameters()
{
    cudaSetDevice(m_device);
    for (std::size_t i = 0; i < m_graph.nodes.size(); ++i) {
        const Node& n = m_graph.nodes[i];
        if (n.op.kind != OpKind::Param && n.op.kind != OpKind::Constant)
            continue;
        const DeviceValue& v = m_values[i];
        HostTensor t(v.dims, v.dtype);
        if (n.data) {
            if (n.data->size() != t.byteSize())
                return atNode(i, "data holds " + std::to_string(n.data->size()) + " bytes, " + describe(t) + " needs "
                                     + std::to_string(t.byteSize()));
            if (!n.data->empty())
                std::memcpy(t.bytes(), n.data->data(), n.data->size());
        } else {
            fillSynthetic(t, static_cast<std::uint64_t>(n.id));
        }
        if (t.byteSize() == 0)
            continue;
        if (cudaError_t e = uploadOnStream(v.ptr, t); e != cudaSuccess)
            return atNode(i, "cannot upload the parameter: " + cudaErrorText(e));
    }
    for (const Launch& step : m_uploadSteps)
        step(m_stream);
    if (cudaError_t e = cudaStreamSynchronize(m_stream); e != cudaSuccess)
        return Diagnostic::error("uploading the parameters failed: " + cudaErrorText(e));
    m_parametersReady = true;
    return true;
}

Result<bool> CudaPlan::setInputs(const std::vector<HostTensor>& inputs)
{
    if (inputs.size() != m_inputs.size())
        return Diagnostic::error("the graph has " + std::to_string(m_inputs.size()) + " inputs, "
                                 + std::to_string(inputs.size()) + " were given");
    cudaSetDevice(m_device);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const PlanInput& want = m_inputs[i];
        const std::size_t pos = *m_graph.indexOf(want.node);
        const bool widen = m_widensInputs && want.dtype == DType::F32 && isNarrowFloat(inputs[i].dtype());
        HostTensor wide; // uploadOnStream returns once the bytes are staged: `wide` may go at the iteration's end
        const HostTensor& in = widen ? (wide = widenedToF32(inputs[i])) : inputs[i];
        if (in.dims() != want.dims || in.dtype() != want.dtype)
            return atNode(pos, "input '" + want.name + "' must be " + Shape::of(want.dims, want.dtype).toString()
                                   + ", got " + describe(inputs[i]));
        if (in.byteSize() == 0)
            continue;
        if (cudaError_t e = uploadOnStream(m_values[pos].ptr, in); e != cudaSuccess)
            return atNode(pos, "cannot upload the input: " + cudaErrorText(e));
    }
    if (cudaError_t e = cudaStreamSynchronize(m_stream); e != cudaSuccess)
        return Diagnostic::error("uploading the inputs failed: " + cudaErrorText(e));
    m_inputsReady = true;
    return true;
}

Result<bool> CudaPlan::ready() const
{
    if (!m_parametersReady)
        return Diagnostic::error("parameters were not uploaded");
    if (!m_inputsReady && !m_inputs.empty())
        return Diagnostic::error("inputs were not set");
    return true;
}

Result<bool> CudaPlan::capture()
{
    if (cudaError_t e = cudaStreamBeginCapture(m_stream, cudaStreamCaptureModeThreadLocal); e != cudaSuccess)
        return Diagnostic::error("cannot capture a CUDA graph: " + cudaErrorText(e));
    for (const Step& s : m_steps)
        s.launch(m_stream);
    cudaGraph_t graph = nullptr;
    cudaError_t e = cudaStreamEndCapture(m_stream, &graph);
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&m_graphExec, graph, 0);
    if (graph)
        cudaGraphDestroy(graph);
    if (e != cudaSuccess) {
        m_graphExec = nullptr;
        return Diagnostic::error("cannot build the CUDA graph: " + cudaErrorText(e));
    }
    return true;
}

Result<bool> CudaPlan::run(const std::atomic<bool>* cancel)
{
    if (auto r = ready(); !r)
        return r;
    if (cancel && cancel->load(std::memory_order_relaxed))
        return Diagnostic::error("run cancelled");
    cudaSetDevice(m_device);
    if (!m_graphExec)
        if (auto r = capture(); !r)
            return r;
    cudaError_t e = cudaGraphLaunch(m_graphExec, m_stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m_stream);
    return finishRun(e, "the CUDA graph failed");
}

Result<bool> CudaPlan::finishRun(cudaError_t e, const std::string& what)
{
    std::optional<Diagnostic> failed;
    for (const auto& check : m_runChecks)
        if (auto r = check(); !r && !failed)
            failed = r.error();
    if (e != cudaSuccess)
        return Diagnostic::error(what + ": " + cudaErrorText(e));
    if (failed)
        return *failed;
    return true;
}

Result<bool> CudaPlan::ensureEvents()
{
    if (!m_events.empty())
        return true;
    m_events.assign(m_steps.size() + 1, nullptr);
    for (cudaEvent_t& ev : m_events)
        if (cudaError_t e = cudaEventCreate(&ev); e != cudaSuccess) {
            for (cudaEvent_t made : m_events)
                if (made)
                    cudaEventDestroy(made);
            m_events.clear();
            return Diagnostic::error("cannot create CUDA events: " + cudaErrorText(e));
        }
    return true;
}

Result<bool> CudaPlan::captureTimed()
{
    if (cudaError_t e = cudaStreamBeginCapture(m_stream, cudaStreamCaptureModeThreadLocal); e != cudaSuccess)
        return Diagnostic::error("cannot capture a CUDA graph: " + cudaErrorText(e));
    cudaEventRecordWithFlags(m_events[0], m_stream, cudaEventRecordExternal);
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        m_steps[i].launch(m_stream);
        cudaEventRecordWithFlags(m_events[i + 1], m_stream, cudaEventRecordExternal);
    }
    cudaGraph_t graph = nullptr;
    cudaError_t e = cudaStreamEndCapture(m_stream, &graph);
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&m_timedExec, graph, 0);
    if (graph)
        cudaGraphDestroy(graph);
    if (e != cudaSuccess) {
        m_timedExec = nullptr;
        cudaGetLastError();
        return Diagnostic::error("cannot build the timed CUDA graph: " + cudaErrorText(e));
    }
    return true;
}

std::vector<NodeTiming> CudaPlan::timings() const
{
    std::vector<NodeTiming> out;
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        float ms = 0;
        cudaEventElapsedTime(&ms, m_events[i], m_events[i + 1]);
        std::vector<NodeId> fused;
        for (std::size_t p : m_steps[i].fused)
            fused.push_back(m_graph.nodes[p].id);
        out.push_back({m_graph.nodes[m_steps[i].node].id, m_steps[i].label, static_cast<std::int64_t>(ms * 1e6),
                       std::move(fused)});
    }
    return out;
}

Result<std::vector<NodeTiming>> CudaPlan::runInstrumented(const std::atomic<bool>* cancel)
{
    if (auto r = ready(); !r)
        return r.error();
    if (cancel && cancel->load(std::memory_order_relaxed))
        return Diagnostic::error("run cancelled");
    cudaSetDevice(m_device);
    if (auto r = ensureEvents(); !r)
        return r.error();
    if (!m_timedExec && !m_timedUnavailable && !captureTimed())
        m_timedUnavailable = true;
    if (m_timedUnavailable)
        return runEager(cancel);
    cudaError_t e = cudaGraphLaunch(m_timedExec, m_stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(m_stream);
    if (auto r = finishRun(e, "the instrumented run failed"); !r)
        return r.error();
    return timings();
}

Result<std::vector<NodeTiming>> CudaPlan::runEager(const std::atomic<bool>* cancel)
{
    if (auto r = ready(); !r)
        return r.error();
    cudaSetDevice(m_device);
    if (auto r = ensureEvents(); !r)
        return r.error();
    cudaEventRecord(m_events[0], m_stream);
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            // Any failure of the steps that ran is forgotten with the run.
            static_cast<void>(finishRun(cudaStreamSynchronize(m_stream), "the cancelled run failed"));
            return Diagnostic::error("run cancelled");
        }
        m_steps[i].launch(m_stream);
        cudaEventRecord(m_events[i + 1], m_stream);
    }
    if (auto r = finishRun(cudaStreamSynchronize(m_stream), "the instrumented run failed"); !r)
        return r.error();
    return timings();
}

Result<std::vector<HostTensor>> CudaPlan::readOutputs() const
{
    cudaSetDevice(m_device);
    std::vector<HostTensor> out;
    for (NodeId id : m_graph.outputs) {
        const DeviceValue& v = m_values[*m_graph.indexOf(id)];
        HostTensor t(v.dims, v.dtype);
        if (t.byteSize())
            // On the plan's stream (see uploadOnStream); a copy into pageable memory returns once it is complete.
            if (cudaError_t e = cudaMemcpyAsync(t.bytes(), v.ptr, t.byteSize(), cudaMemcpyDeviceToHost, m_stream);
                e != cudaSuccess || (e = cudaStreamSynchronize(m_stream)) != cudaSuccess)
                return Diagnostic::error("cannot read output " + std::to_string(id) + ": " + cudaErrorText(e));
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace costscope::cuda
