// SPDX-License-Identifier: MIT
#include "ir/constant_fold.h"

#include <cstring>

namespace costscope {

namespace {

std::optional<DType> fillType(const Node& node)
{
    DType t = node.shape.dtype;
    if (auto name = node.op.attrs.getString("dtype")) {
        auto parsed = parseDType(*name);
        if (!parsed)
            return std::nullopt;
        t = *parsed;
    }
    switch (t) {
    case DType::F32:
    case DType::F64:
    case DType::I64:
    case DType::I32:
    case DType::Bool:
    case DType::U8:
        return t;
    default:
        return std::nullopt;
    }
}

template <class T>
std::vector<std::uint8_t> filled(std::uint64_t elements, T value)
{
    std::vector<std::uint8_t> bytes(elements * sizeof(T));
    for (std::uint64_t i = 0; i < elements; ++i)
        std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
    return bytes;
}

} // namespace

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
    return leafWithData && fillType(node) == node.shape.dtype;
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
        const double value = n.op.attrs.doubleOr("value", 0.0);
        std::vector<std::uint8_t> bytes;
        switch (n.shape.dtype) {
        case DType::F32:
            bytes = filled(elements, static_cast<float>(value));
            break;
        case DType::F64:
            bytes = filled(elements, value);
            break;
        case DType::I64:
            bytes = filled(elements, static_cast<std::int64_t>(value));
            break;
        case DType::I32:
            bytes = filled(elements, static_cast<std::int32_t>(value));
            break;
        default:
            bytes = filled(elements, static_cast<std::uint8_t>(value));
            break; // Bool, U8
        }
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
