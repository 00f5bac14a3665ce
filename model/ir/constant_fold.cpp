// SPDX-License-Identifier: MIT
#include "ir/constant_fold.h"

#include "ir/constant_fill.h"

namespace costscope {

bool isFoldableConstant(const Graph& g, const Node& node)
{
    if (node.op.kind != OpKind::ConstantOfShape || node.inputs.size() != 1 || !node.shape.elements())
        return false;
    const auto at = g.indexOf(node.inputs[0]);
    if (!at)
        return false;
    const Node& shape = g.nodes[*at];
    const bool leafWithData =
        (shape.op.kind == OpKind::Constant || shape.op.kind == OpKind::Param) && shape.data != nullptr;
    return leafWithData && constantFillDType(node) == node.shape.dtype && isFillableDType(node.shape.dtype);
}

bool hasFoldableConstants(const Graph& g)
{
    for (const Node& n : g.nodes)
        if (isFoldableConstant(g, n))
            return true;
    return false;
}

Graph withConstantsFolded(const Graph& g)
{
    Graph out = g;
    bool changed = false;
    for (Node& n : out.nodes) {
        if (!isFoldableConstant(g, n))
            continue;
        const std::uint64_t elements = *n.shape.elements();
        std::vector<std::uint8_t> bytes(elements * byteSize(n.shape.dtype));
        fillElements(bytes.data(), n.shape.dtype, constantFillValue(n), 0, elements);
        Op constant = Op::make(OpKind::Constant);
        n.op = std::move(constant);
        n.inputs.clear();
        n.data = makeTensorData(std::move(bytes));
        changed = true;
    }
    if (changed)
        out.invalidate();
    return out;
}

} // namespace costscope
