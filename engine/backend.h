// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"
#include "run_result.h"
#include "tensor.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace costscope {

using DeviceIndex = int;

struct DeviceInfo {
    std::string backend; // "cpu", "cuda", "vulkan"
    DeviceIndex index = 0;
    std::string name;
    std::uint64_t memoryBytes = 0;
    int computeUnits = 0; // cores, SMs or compute units
    std::string pciBusId; // "0000:3b:00.0"; empty where the backend cannot tell (the CPU, Vulkan without the extension)
    int clockMHz = 0;     // peak core clock; 0: unknown
    int memoryClockMHz = 0; // peak memory clock; 0: unknown
};

// A graph input the caller provides: the Input node and its shape with the bindings applied.
struct PlanInput {
    NodeId node = 0;
    std::string name;
    std::vector<std::int64_t> dims;
    DType dtype = DType::F32;
};

// A graph compiled for one device. Not thread-safe: one thread drives a plan at a time; `cancel` may be set
// from any thread and is checked between nodes (a cancelled run returns an error saying so).
class ExecutablePlan {
public:
    virtual ~ExecutablePlan() = default;

    const std::vector<PlanInput>& inputs() const { return m_inputs; }
    // Param/Constant values go to the device: Node::data when present (little-endian bytes), else deterministic
    // synthetic values (see synthetic.h). Must be called once before the first run.
    virtual Result<bool> uploadParameters() = 0;
    // One tensor per inputs() entry, in that order; dims and dtype must match.
    virtual Result<bool> setInputs(const std::vector<HostTensor>& inputs) = 0;
    // Runs the whole graph once.
    virtual Result<bool> run(const std::atomic<bool>* cancel = nullptr) = 0;
    // Runs once, timing every node (in execution order; leaves excluded).
    virtual Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>* cancel = nullptr) = 0;
    // The graph outputs of the last run, copied to the host, in the graph's output order.
    virtual Result<std::vector<HostTensor>> readOutputs() const = 0;

protected:
    std::vector<PlanInput> m_inputs;
};

// What every backend's compile step reads; a backend ignores what it does not do.
struct CompileOptions {
    // Run the groups of planFusion (fusion_plan.h) as one kernel each (the CUDA backend); off gives one kernel per
    // node, so that both can be measured.
    bool fusion = true;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0; // "cpu"
    virtual std::vector<DeviceInfo> devices() const = 0;
    // An error names the first node the backend cannot run (unsupported op, unbound symbol, ...).
    virtual Result<std::unique_ptr<ExecutablePlan>> compile(const Graph& g, const Bindings& bindings,
                                                            DeviceIndex device) = 0;
    void setCompileOptions(const CompileOptions& options) { m_compileOptions = options; }
    const CompileOptions& compileOptions() const { return m_compileOptions; }

protected:
    CompileOptions m_compileOptions;
};

// Whether a backend can be used in this process: "cpu" is built in; "cuda" and "vulkan" are plugins loaded on first
// use, unavailable when not installed or when their libraries (CUDA runtime, Vulkan loader) are missing.
struct BackendStatus {
    std::string name;
    bool available = false;
    std::string detail; // "built in", "plugin", or why it is unavailable
};
std::vector<BackendStatus> backendStatus();

// The backends that can be used in this process ("cpu" always; "cuda"/"vulkan" where their plugin loads).
std::vector<std::unique_ptr<Backend>> availableBackends();
// The error says why: an unknown name, or the plugin's reason for being unavailable.
Result<std::unique_ptr<Backend>> loadBackend(const std::string& name);
// Whether `name` is a backend Costscope has (available here or not): cpu, cuda, vulkan.
bool isKnownBackend(const std::string& name);
// loadBackend without the reason: nullptr when unavailable.
std::unique_ptr<Backend> makeBackend(const std::string& name);

} // namespace costscope
