// SPDX-License-Identifier: MIT
#include "formats/onnx_ops.h"

namespace costscope::onnx_import {

NodeContext::NodeContext(const onnx::NodeProto& node, int index, int opset, ConstLookup constants,
                         ShapeLookup shapes, Diagnostics* warnings)
    : m_node(node), m_index(index), m_opset(opset), m_constants(std::move(constants)), m_shapes(std::move(shapes)),
      m_warnings(warnings)
{
}

const onnx::AttributeProto* NodeContext::attr(const std::string& name) const
{
    for (const auto& a : m_node.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

std::optional<std::int64_t> NodeContext::attrInt(const std::string& name) const
{
    const auto* a = attr(name);
    if (!a || a->type() != onnx::AttributeProto::INT)
        return std::nullopt;
    return a->i();
}

std::optional<double> NodeContext::attrFloat(const std::string& name) const
{
    const auto* a = attr(name);
    if (!a)
        return std::nullopt;
    if (a->type() == onnx::AttributeProto::FLOAT)
        return a->f();
    if (a->type() == onnx::AttributeProto::INT)
        return static_cast<double>(a->i());
    return std::nullopt;
}

std::optional<std::string> NodeContext::attrString(const std::string& name) const
{
    const auto* a = attr(name);
    if (!a || a->type() != onnx::AttributeProto::STRING)
        return std::nullopt;
    return a->s();
}

std::optional<std::vector<std::int64_t>> NodeContext::attrInts(const std::string& name) const
{
    const auto* a = attr(name);
    if (!a || a->type() != onnx::AttributeProto::INTS)
        return std::nullopt;
    return std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
}

bool NodeContext::hasInput(int i) const
{
    return i >= 0 && i < m_node.input_size() && !m_node.input(i).empty();
}

const ConstTensor* NodeContext::constInput(int i) const
{
    return hasInput(i) ? m_constants(m_node.input(i)) : nullptr;
}

std::optional<std::vector<std::int64_t>> NodeContext::constInputInts(int i) const
{
    const ConstTensor* c = constInput(i);
    return c ? constInts(*c) : std::nullopt;
}

std::optional<double> NodeContext::constInputScalar(int i) const
{
    const ConstTensor* c = constInput(i);
    if (!c)
        return std::nullopt;
    auto v = constDoubles(*c);
    if (!v || v->size() != 1)
        return std::nullopt;
    return v->front();
}

const Shape* NodeContext::inputShape(int i) const
{
    return hasInput(i) ? m_shapes(m_node.input(i)) : nullptr;
}

const Shape* NodeContext::outputShape(int i) const
{
    if (i < 0 || i >= m_node.output_size() || m_node.output(i).empty())
        return nullptr;
    return m_shapes(m_node.output(i));
}

std::string NodeContext::label() const
{
    const std::string& name = m_node.name().empty() && m_node.output_size() > 0 ? m_node.output(0) : m_node.name();
    return "ONNX node #" + std::to_string(m_index) + " '" + name + "' (" + m_node.op_type() + ")";
}

Diagnostic NodeContext::error(const std::string& what) const
{
    return Diagnostic::error(label() + ": " + what);
}

void NodeContext::warn(const std::string& what) const
{
    if (m_warnings)
        m_warnings->push_back(Diagnostic::warning(label() + ": " + what));
}

Mapped single(Op op, std::vector<int> onnxInputs)
{
    MappedOp m;
    m.op = std::move(op);
    for (int i : onnxInputs)
        m.inputs.push_back(InputRef{i, -1});
    return std::vector<MappedOp>{std::move(m)};
}

} // namespace costscope::onnx_import
