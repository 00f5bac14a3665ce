// SPDX-License-Identifier: MIT
#include "shape_operands.h"

#include "host_constant.h"

#include <algorithm>

namespace costscope {

namespace {
constexpr std::uint64_t kMaxFoldedElements = 64;

bool isIntegerDType(DType t)
{
    return t == DType::I64 || t == DType::I32;
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
        if (auto value = evaluateOnHost(g, n); value && isFoldedOperand(*value))
            makeConstant(g.nodes[pos], *value);
    }
    g.invalidate();
    return g;
}

} // namespace costscope
