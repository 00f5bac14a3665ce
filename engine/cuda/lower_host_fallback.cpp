// SPDX-License-Identifier: MIT
// A host step (cuda/host_fallback.h): on the plan's stream, the node's inputs are copied into page-locked host
// memory, a host function (cudaLaunchHostFunc) runs the CPU backend's kernel on them, and its output is copied back
// into the node's buffer. All three are stream work, so the step is captured into the plan's CUDA graphs and runs
// node by node (runEager) like any other. The host function runs on a thread of the CUDA driver and may call no
// CUDA function: it only copies between host buffers and runs the kernel; a failure is kept for the run check that
// reads it once the stream synchronized.
#include "cpu/precision.h"
#include "cuda/cuda_lower.h"
#include "run_result.h"

#include <cstring>
#include <memory>
#include <mutex>

namespace costscope::cuda {

namespace {
// Page-locked host memory, freed with the step: the copies of a captured graph need it, and it is what lets them
// run asynchronously.
using PinnedMemory = std::unique_ptr<void, cudaError_t (*)(void*)>;

// One copy between a device buffer and the step's page-locked memory.
struct Copy {
    void* device = nullptr;
    std::size_t offset = 0; // into the page-locked memory
    std::size_t bytes = 0;
};

// One pool for every host step, of one thread (no workers: parallelFor runs inline). Every host function of the
// process runs on the driver's callback thread and holds the stream until it returns; workers would spin between
// loops on the cores the thread feeding the GPU needs, for ops that are small wherever a host fallback is the answer
// (the conformance cases, an exotic op in a model).
cpu::ThreadPool& hostStepPool()
{
    static cpu::ThreadPool pool(1);
    return pool;
}

// What one host step works on. Its launch and its run check own it, so it lives as long as the plan's steps, which
// the plan drops only once its stream synchronized. Only the host function touches the tensors; the error is
// shared with the thread that checks the run.
struct HostStep {
    const Node* node = nullptr; // in the plan's graph, which outlives the steps
    Bindings bindings;
    cpu::KernelFn kernel = nullptr;
    PinnedMemory pinned{nullptr, cudaFreeHost}; // the inputs, then the output
    std::vector<Copy> inputs;
    Copy output;
    std::vector<HostTensor> hostInputs; // each input's dims and dtype, its bytes copied in from `pinned` each run
    Shape want;                         // the output as the plan allocated it
    HostTensor computed;
    std::vector<HostTensor> converted;
    std::mutex mutex;
    std::string error; // the last run's failure, "" when none

    void run() noexcept;
    void fail(const std::string& message);
    std::string takeError();
};

void HostStep::fail(const std::string& message)
{
    std::lock_guard lock(mutex);
    if (error.empty())
        error = message;
}

std::string HostStep::takeError()
{
    std::lock_guard lock(mutex);
    return std::exchange(error, {});
}

void HostStep::run() noexcept
{
    try {
        auto* base = static_cast<std::byte*>(pinned.get());
        cpu::Inputs in;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            if (inputs[i].bytes)
                std::memcpy(hostInputs[i].bytes(), base + inputs[i].offset, inputs[i].bytes);
            in.push_back(&hostInputs[i]);
        }
        cpu::KernelContext ctx{hostStepPool(), *node, bindings};
        if (auto status = cpu::runConverted(kernel, ctx, in, computed, converted); !status)
            return fail(status.error().message);
        // The copy back writes exactly the buffer the plan allocated: any other shape is an error, never a write.
        if (computed.shape() != want || computed.byteSize() != output.bytes)
            return fail("the CPU kernel gave " + describe(computed) + " where the plan allocated " + want.toString());
        if (output.bytes)
            std::memcpy(base + output.offset, computed.bytes(), output.bytes);
    } catch (const std::exception& e) {
        fail(std::string("the CPU kernel threw: ") + e.what());
    } catch (...) {
        fail("the CPU kernel threw");
    }
}

void CUDART_CB runHostStep(void* step)
{
    static_cast<HostStep*>(step)->run();
}

// Where the next buffer starts in the page-locked memory: 256-byte aligned, as cudaMalloc's are.
std::size_t aligned(std::size_t offset)
{
    return (offset + 255) / 256 * 256;
}
} // namespace

LowerResult lowerHostFallback(LowerContext& c)
{
    auto kernel = cpu::kernelForNode(c.node);
    if (!kernel)
        return lowerError(kernel.error().message);
    auto step = std::make_shared<HostStep>();
    step->node = &c.node;
    step->bindings = c.plan.bindings();
    step->kernel = *kernel;
    std::size_t total = 0;
    for (const DeviceValue* v : c.in) {
        HostTensor t(v->dims, v->dtype);
        if (v->bytes && !v->ptr) // a value only a fused kernel holds: never the input of a node outside it
            return lowerError("input " + valueString(*v) + " has no buffer");
        if (t.byteSize() != v->bytes)
            return lowerError("input " + valueString(*v) + " holds " + std::to_string(v->bytes) + " bytes, not "
                              + std::to_string(t.byteSize()));
        total = aligned(total);
        step->inputs.push_back({v->ptr, total, v->bytes});
        total += v->bytes;
        step->hostInputs.push_back(std::move(t));
    }
    step->want = Shape::of(c.out.dims, c.out.dtype);
    total = aligned(total);
    step->output = {c.out.ptr, total, c.out.bytes};
    total += c.out.bytes;
    if (total) {
        void* pinned = nullptr;
        if (cudaError_t e = cudaMallocHost(&pinned, total); e != cudaSuccess) {
            cudaGetLastError();
            return lowerError("cannot allocate " + std::to_string(total)
                              + " bytes of page-locked host memory for the host fallback: " + cudaErrorText(e));
        }
        step->pinned.reset(pinned);
    }
    c.plan.addRunCheck([step, &plan = c.plan, pos = c.pos]() -> Result<bool> {
        if (std::string error = step->takeError(); !error.empty())
            return plan.atNode(pos, "the host fallback (CPU kernel) failed: " + error);
        return true;
    });
    c.kernel = std::string(kHostFallbackKernel);
    return Launch([step](cudaStream_t s) {
        auto* base = static_cast<std::byte*>(step->pinned.get());
        for (const Copy& in : step->inputs)
            if (in.bytes)
                cudaMemcpyAsync(base + in.offset, in.device, in.bytes, cudaMemcpyDeviceToHost, s);
        cudaLaunchHostFunc(s, runHostStep, step.get());
        if (step->output.bytes)
            cudaMemcpyAsync(step->output.device, base + step->output.offset, step->output.bytes, cudaMemcpyHostToDevice,
                            s);
    });
}

} // namespace costscope::cuda
