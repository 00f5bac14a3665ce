// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "cpu/kernel.h"

#include <memory>

namespace costscope::cpu {

// A graph ready to run on the host: nodes in topological order with their kernels; every node's output tensor
// stays allocated between runs so that repeated runs do not reallocate.
class CpuPlan : public ExecutablePlan {
public:
    struct Step {
        std::size_t node;                // position in the graph's node list
        KernelFn kernel;                 // nullptr for leaves
        std::vector<std::size_t> inputs; // positions of the input nodes
    };

    CpuPlan(std::shared_ptr<ThreadPool> pool, Graph graph, Bindings bindings, std::vector<Step> steps,
            std::vector<PlanInput> inputs);

    Result<bool> uploadParameters() override;
    Result<bool> setInputs(const std::vector<HostTensor>& inputs) override;
    Result<bool> run(const std::atomic<bool>* cancel) override;
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>* cancel) override;
    Result<std::vector<HostTensor>> readOutputs() const override;

private:
    Result<bool> execute(const std::atomic<bool>* cancel, std::vector<NodeTiming>* timings);
    Diagnostic atNode(std::size_t node, const std::string& message) const;

    std::shared_ptr<ThreadPool> m_pool;
    Graph m_graph;
    Bindings m_bindings;
    std::vector<Step> m_steps;
    std::vector<HostTensor> m_values; // one per graph node
    std::vector<HostTensor> m_converted; // a step's inputs in its kernel's dtypes (see precision.h), reused
    bool m_parametersReady = false;
    bool m_inputsReady = false;
};

// The plan of `g` on the host: a kernel per node in topological order; every Input's dims must resolve with the
// bindings. An error names the first node the CPU backend cannot run.
Result<std::unique_ptr<ExecutablePlan>> compilePlan(std::shared_ptr<ThreadPool> pool, const Graph& g,
                                                    const Bindings& bindings);

} // namespace costscope::cpu
