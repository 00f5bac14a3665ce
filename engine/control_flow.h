// SPDX-License-Identifier: MIT
#pragma once

// ONNX If, Loop and Scan run on the host, whatever the backend: If runs one branch, Loop its body up to a trip count
// while its condition holds, Scan its body once per slice of its scan inputs. Each backend runs a body as a plan of
// its own (PlanSubgraphRunner over its compile step); the iteration logic here is the one every backend shares.

#include "backend.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace costscope {

// Whether `n` is an If, Loop or Scan that carries its subgraphs.
bool isControlFlow(const Node& n);
bool hasControlFlow(const Graph& g);

// One subgraph run again and again (a Loop's or Scan's body, an If's branch): given its inputs (its own, then the
// enclosing values it reads, see Subgraph) it returns its outputs.
class SubgraphRunner {
public:
    virtual ~SubgraphRunner() = default;
    virtual Result<std::vector<HostTensor>> run(const std::vector<HostTensor>& inputs) = 0;
};
using MakeSubgraphRunner = std::function<std::unique_ptr<SubgraphRunner>(const Subgraph&)>;

// A backend's compile step for a graph whose Input nodes have static shapes.
using CompileGraph = std::function<Result<std::unique_ptr<ExecutablePlan>>(const Graph&)>;

// Runs a subgraph as a plan of the backend: its Input nodes get the dims and dtypes of the tensors given (and the
// nodes after them the shapes that follow, see bindStatedShapes), compiled again only when those change. Its shape
// operands are folded (shape_operands.h) where the backend cannot compile it otherwise or needs the shapes that tells.
class PlanSubgraphRunner : public SubgraphRunner {
public:
    // `sizedByStatedShapes`: the backend takes tensors' dims from the stated shapes (the CUDA backend; Vulkan for some
    // ops), so operands are folded where that tells shapes otherwise untold. Off for the CPU backend.
    PlanSubgraphRunner(const Subgraph& sub, CompileGraph compile, bool sizedByStatedShapes = true)
        : m_sub(sub), m_compile(std::move(compile)), m_sizedByStatedShapes(sizedByStatedShapes)
    {
    }
    Result<std::vector<HostTensor>> run(const std::vector<HostTensor>& inputs) override;

private:
    std::optional<Diagnostic> compileFor(const std::vector<HostTensor>& inputs);
    Diagnostic inBody(const Diagnostic& d) const;

    const Subgraph& m_sub;
    CompileGraph m_compile;
    bool m_sizedByStatedShapes;
    std::unique_ptr<ExecutablePlan> m_plan;
    std::vector<std::size_t> m_feed; // plan input i takes the given input m_feed[i]
    std::vector<std::pair<std::vector<std::int64_t>, DType>> m_signature;
    bool m_folds = false;                         // compiled with its shape operands folded (shape_operands.h)
    std::vector<std::vector<std::byte>> m_folded; // then the values folded into m_plan
};

// Gives each node the shape its inputs imply where the shape rules can tell it (and it resolves with `bindings`), in
// place of the stated one, and returns how many nodes it could not tell: exporters leave a body's shapes unknown (the
// importer shows them as rank 0), the inputs of a body or stretch are known once it runs, and the CUDA backend takes
// every tensor's dims from the stated shapes.
std::size_t bindStatedShapes(Graph& g, const Bindings& bindings);

// What an If, Loop or Scan computed: its outputs in ONNX order. A Loop or Scan that ran no iteration has only its
// loop-carried values; its scan outputs are empty (see pickControlFlowOutput).
struct ControlFlowOutputs {
    std::vector<HostTensor> values;
    bool noIterations = false;
};

// Runs the If, Loop or Scan `node` on its inputs (as node.inputs lists them: the ONNX inputs present, then the
// enclosing values its subgraphs read).
Result<ControlFlowOutputs> runControlFlow(const Node& node, const std::vector<const HostTensor*>& inputs,
                                          const MakeSubgraphRunner& makeRunner);
// The output `outputNode` stands for (its onnx_output attribute); a scan output of no iteration is empty along its
// first axis, the rest of the node's stated shape where known.
Result<HostTensor> pickControlFlowOutput(ControlFlowOutputs& outputs, const Node& outputNode, const Bindings& bindings);

} // namespace costscope
