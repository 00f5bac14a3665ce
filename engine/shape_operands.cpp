// SPDX-License-Identifier: MIT
#include "shape_operands.h"

#include "cpu/cpu_backend.h"
#include "measure.h"

#include <algorithm>

namespace costscope {

namespace {
constexpr std::uint64_t kMaxFoldedElements = 64;

bool isIntegerDType(DType t)
{
    return t == DType::I64 || t == DType::I32;
}

void makeConstant(Node& n, const HostTensor& value)
{
    n.op = Op::make(OpKind::Constant);
    n.shape = value.shape();
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(value.bytes());
    n.data = makeTensorData(std::vector<std::uint8_t>(bytes, bytes + value.byteSize()));
    n.inputs.clear();
    n.subgraphs.clear();
}

// The value of node `n`, whose inputs are all Constants of `g`, computed on the host.
std::optional<HostTensor> evaluate(const Graph& g, const Node& n)
{
    Graph one;
    for (NodeId id : n.inputs)
        if (!one.find(id))
            one.add(*g.find(id));
    one.add(n);
    one.outputs = {n.id};
    CpuBackend cpu(1);
    auto plan = preparePlan(cpu, one, {}, 0, {});
    if (!plan || !(*plan)->run())
        return std::nullopt;
    auto out = (*plan)->readOutputs();
    if (!out || out->size() != 1)
        return std::nullopt;
    return std::move(out->front());
}
} // namespace

bool isFoldedOperand(const HostTensor& t)
{
    return isIntegerDType(t.dtype()) && t.elements() <= kMaxFoldedElements;
}

Graph withOperandsFolded(Graph g, const std::vector<HostTensor>& given)
{
    std::size_t input = 0;
    for (Node& n : g.nodes)
        if (n.op.kind == OpKind::Input && input < given.size())
            if (const HostTensor& t = given[input++]; isFoldedOperand(t))
                makeConstant(n, t);
    auto order = g.topologicalOrder();
    if (!order)
        return g;
    for (std::size_t pos : *order) {
        const Node& n = g.nodes[pos];
        const bool fromConstants = !n.inputs.empty() && std::all_of(n.inputs.begin(), n.inputs.end(), [&](NodeId id) {
            const Node* in = g.find(id);
            return in && in->op.kind == OpKind::Constant;
        });
        // The stated dtype spares computing a float tensor only to find it is not an operand.
        if (!fromConstants || !n.subgraphs.empty() || !isIntegerDType(n.shape.dtype))
            continue;
        if (auto value = evaluate(g, n); value && isFoldedOperand(*value))
            makeConstant(g.nodes[pos], *value);
    }
    g.invalidate();
    return g;
}

} // namespace costscope
