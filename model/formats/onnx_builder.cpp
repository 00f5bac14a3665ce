// SPDX-License-Identifier: MIT
#include "formats/onnx_builder.h"

#include "formats/json_attrs.h"
#include "formats/missing_tensor_data.h"
#include "formats/onnx_newer_shapes.h"
#include "formats/onnx_scope.h"
#include "ir/narrow_types.h"
#include "ir/shape_inference.h"

#include <memory>

namespace costscope::onnx_import {

namespace {
std::string nodeName(const onnx::NodeProto& n)
{
    if (!n.name().empty())
        return validUtf8(n.name());
    return n.output_size() > 0 ? validUtf8(n.output(0)) : std::string{};
}

TensorData shareBytes(const ConstTensor& t)
{
    if (!t.hasData)
        return nullptr;
    return t.shared();
}
} // namespace

GraphBuilder::GraphBuilder(const onnx::GraphProto& g, int opset, Diagnostics* warnings, ExternalData* external,
                           std::vector<OuterValue> outer)
    : m_proto(g), m_opset(opset), m_outer(std::move(outer)), m_warnings(warnings), m_external(external)
{
}

Result<Graph> GraphBuilder::build()
{
    if (auto e = collectShapes())
        return *e;
    if (auto e = collectInitializers())
        return *e;
    if (auto e = addGraphInputs())
        return *e;
    for (int i = 0; i < m_proto.node_size(); ++i) {
        const auto& n = m_proto.node(i);
        const bool isConstant = n.op_type() == "Constant" && (n.domain().empty() || n.domain() == "ai.onnx");
        if (auto e = isConstant ? addConstantNode(n, i) : addNode(n, i))
            return *e;
    }
    if (auto e = addOutputs())
        return *e;
    m_graph.name = validUtf8(m_proto.name());
    assignScopes(m_graph);
    return std::move(m_graph);
}

std::optional<Diagnostic> GraphBuilder::collectShapes()
{
    auto take = [this](const onnx::ValueInfoProto& v) {
        if (v.type().has_tensor_type())
            if (auto narrow = narrowTypeFromOnnx(v.type().tensor_type().elem_type()))
                m_narrowTypes[v.name()] = std::string(narrowTypeName(*narrow));
        if (auto s = shapeFromType(v.type(), v.name(), nullptr))
            m_shapes[v.name()] = *s;
        else if (v.type().has_tensor_type())
            m_dtypes[v.name()] = dtypeForTensor(v.type().tensor_type().elem_type(), v.name(), nullptr);
    };
    // What the file states about inputs and outputs wins over inferred value_info.
    for (const auto& v : m_proto.value_info())
        take(v);
    for (const auto& v : m_proto.input())
        take(v);
    for (const auto& v : m_proto.output())
        take(v);
    return std::nullopt;
}

std::optional<Diagnostic> GraphBuilder::collectInitializers()
{
    for (const auto& t : m_proto.initializer()) {
        if (t.name().empty())
            return Diagnostic::error("an initializer has no name");
        auto c = readTensor(t, m_warnings, m_external);
        if (!c)
            return c.error();
        if (!m_constants.emplace(t.name(), std::move(*c)).second)
            return Diagnostic::error("initializer '" + t.name() + "' is defined twice");
    }
    return std::nullopt;
}

std::optional<Diagnostic> GraphBuilder::addGraphInputs()
{
    for (const auto& v : m_proto.input()) {
        if (m_constants.count(v.name()))
            continue; // an initializer listed as an input is a default value, not something the caller feeds
        if (m_produced.count(v.name()))
            return Diagnostic::error("graph input '" + v.name() + "' is listed twice");
        Node n;
        n.id = static_cast<NodeId>(m_graph.nodes.size());
        Attrs a;
        a.set("name", validUtf8(v.name()));
        n.op = Op::make(OpKind::Input, std::move(a));
        n.name = validUtf8(v.name());
        if (v.type().has_tensor_type())
            dtypeForTensor(v.type().tensor_type().elem_type(), v.name(), m_warnings);
        n.shape = outputShape(v.name(), n.id, v.name());
        m_produced[v.name()] = append(std::move(n));
    }
    for (const OuterValue& v : m_outer) {
        Node n;
        n.id = static_cast<NodeId>(m_graph.nodes.size());
        Attrs a;
        a.set("name", validUtf8(v.name));
        n.op = Op::make(OpKind::Input, std::move(a));
        n.name = validUtf8(v.name);
        n.shape = v.shape;
        m_produced[v.name] = append(std::move(n));
    }
    return std::nullopt;
}

std::optional<Diagnostic> GraphBuilder::addConstantNode(const onnx::NodeProto& n, int index)
{
    NodeContext ctx(n, index, m_opset, nullptr, nullptr, m_warnings);
    if (n.output_size() != 1 || n.output(0).empty())
        return ctx.error("Constant must have exactly one output");
    for (const auto& a : n.attribute()) {
        auto value = constantNodeValue(a, m_warnings);
        if (!value)
            continue;
        if (!*value)
            return ctx.error(value->error().message);
        if (!value->value().hasData)
            ctx.warn("its value (" + a.name() + ") is not a numeric tensor; the Constant keeps no data");
        m_shapes[n.output(0)] = value->value().shape;
        m_constants[n.output(0)] = std::move(value->value());
        m_constantNames[n.output(0)] = nodeName(n);
        return std::nullopt;
    }
    return ctx.error("Constant has no value attribute");
}

std::optional<Diagnostic> GraphBuilder::addNode(const onnx::NodeProto& n, int index)
{
    NodeContext ctx(
        n, index, m_opset,
        [this](const std::string& t) -> const ConstTensor* {
            auto it = m_constants.find(t);
            return it == m_constants.end() ? nullptr : &it->second;
        },
        [this](const std::string& t) -> const Shape* {
            auto it = m_shapes.find(t);
            return it == m_shapes.end() ? nullptr : &it->second;
        },
        m_warnings);
    for (const auto& out : n.output())
        if (!out.empty() && (m_produced.count(out) || m_constants.count(out)))
            return ctx.error("output '" + out + "' is already produced elsewhere (tensor names must be unique)");
    auto mapped = mapKnownNode(ctx);
    if (!mapped)
        return addUnknown(n, ctx);
    if (!*mapped)
        return mapped->error();
    return addMapped(n, ctx, std::move(mapped->value()));
}

std::optional<Diagnostic> GraphBuilder::addMapped(const onnx::NodeProto& n, const NodeContext& ctx,
                                                  std::vector<MappedOp> ops)
{
    std::vector<NodeId> ids;
    std::vector<bool> represented(static_cast<std::size_t>(n.output_size()), false);
    for (std::size_t k = 0; k < ops.size(); ++k) {
        MappedOp& m = ops[k];
        Node node;
        for (const InputRef& ref : m.inputs) {
            if (ref.mapped >= 0) {
                node.inputs.push_back(ids[static_cast<std::size_t>(ref.mapped)]);
                continue;
            }
            if (!ctx.hasInput(ref.onnxInput))
                return ctx.error("input " + std::to_string(ref.onnxInput) + " is required but not given");
            auto p = producer(n.input(ref.onnxInput), &ctx);
            if (!p)
                return p.error();
            node.inputs.push_back(*p);
        }
        node.id = static_cast<NodeId>(m_graph.nodes.size()); // after the inputs: their leaves may be new
        const int out = m.output.value_or(0);
        if (out >= n.output_size())
            return ctx.error("has no output " + std::to_string(out));
        const std::string& tensor = n.output(out);
        node.name = ops.size() == 1 ? nodeName(n)
                    : m.output      ? validUtf8(tensor)
                                    : nodeName(n) + "#" + std::to_string(k);
        node.op = std::move(m.op);
        if (auto narrow = m_narrowTypes.find(tensor);
            narrow != m_narrowTypes.end() && node.op.kind == OpKind::Cast && !node.op.attrs.has("onnx_to"))
            node.op.attrs.set("onnx_to", narrow->second); // CastLike to a value of such a type
        if (!m_shapes.count(tensor))
            inferOwnShape(node, tensor);
        node.shape = outputShape(tensor, node.id, *node.name);
        ids.push_back(append(std::move(node)));
        if (m.output) {
            m_produced[tensor] = ids.back();
            represented[static_cast<std::size_t>(out)] = true;
        }
    }
    // LayerNormalization's Mean and InvStdDev: nodes of the ONNX op itself, run by name, one per output.
    const bool laterOutputsByName = n.op_type() == "LayerNormalization";
    for (int i = 0; i < n.output_size(); ++i) {
        if (represented[static_cast<std::size_t>(i)] || n.output(i).empty())
            continue;
        if (!laterOutputsByName) {
            m_unsupportedOutputs[n.output(i)] = ctx.label() + ": output " + std::to_string(i) + " ('" + n.output(i)
                + "') is used, but Costscope represents only output 0 of " + n.op_type();
            continue;
        }
        auto first = unknownNode(n, ctx);
        if (!first)
            return first.error();
        m_produced[n.output(i)] = appendOutputNode(*first, i, n.output(i));
    }
    return std::nullopt;
}

Result<Node> GraphBuilder::unknownNode(const onnx::NodeProto& n, const NodeContext& ctx)
{
    Node node;
    std::vector<std::int64_t> slots; // the ONNX input index of each input kept (omitted optional ones are skipped)
    for (int i = 0; i < n.input_size(); ++i) {
        if (n.input(i).empty())
            continue;
        auto p = producer(n.input(i), &ctx);
        if (!p)
            return p.error();
        node.inputs.push_back(*p);
        slots.push_back(i);
    }
    Attrs attrs;
    OJson payload = OJson::object();
    for (const auto& a : n.attribute()) {
        const std::string key = validUtf8(a.name());
        attrs.set(key, attrValue(a));
        payload[key] = attrToJson(*attrs.find(key));
    }
    if (auto e = addSubgraphs(n, ctx, node, attrs)) // before the id: the enclosing values' leaves may be new
        return *e;
    node.id = static_cast<NodeId>(m_graph.nodes.size());
    node.op = Op::unknown(validUtf8(n.op_type()), attrs.empty() ? std::string{} : payload.dump());
    // Backends that run ONNX ops the catalogue has no kind for (cpu/onnx_kernels.h) need to know where the inputs
    // sit and which domain the op is from; these two are not ONNX attributes and stay out of the payload.
    if (static_cast<int>(slots.size()) != n.input_size())
        attrs.set("onnx_input_slots", slots);
    if (!n.domain().empty() && n.domain() != "ai.onnx")
        attrs.set("onnx_domain", validUtf8(n.domain()));
    if (n.op_type() == "DFT" && m_opset < 20 && !attrs.has("axis"))
        attrs.set("axis", std::int64_t{1}); // DFT's default axis: 1 up to opset 19, then -2 (an input)
    if (n.output_size() > 1)                // Split into equal parts, one per output, needs to know how many there are
        attrs.set("onnx_output_count", std::int64_t{n.output_size()});
    if (n.output_size() > 0)
        if (auto narrow = m_narrowTypes.find(n.output(0)); narrow != m_narrowTypes.end())
            attrs.set("onnx_to", narrow->second); // QuantizeLinear to INT4, FLOAT8E4M3FN, ...
    node.op.attrs = std::move(attrs);
    node.name = nodeName(n);
    return node;
}

std::optional<Diagnostic> GraphBuilder::addUnknown(const onnx::NodeProto& n, const NodeContext& ctx)
{
    auto node = unknownNode(n, ctx);
    if (!node)
        return node.error();
    const std::string out0 = n.output_size() > 0 ? n.output(0) : std::string{};
    if (!m_shapes.count(out0))
        if (auto own = newerOpShape(ctx))
            m_shapes[out0] = *own;
    node->shape = outputShape(out0, node->id, *node->name);
    const std::string note = n.domain().empty() ? std::string{} : " (domain " + n.domain() + ")";
    ctx.warn("no Costscope op for " + n.op_type() + note + ": loaded as an unknown op");
    const Node first = *node;
    const NodeId id = append(std::move(*node));
    if (n.output_size() > 0 && !n.output(0).empty())
        m_produced[n.output(0)] = id;
    for (int k = 1; k < n.output_size(); ++k)
        if (!n.output(k).empty())
            m_produced[n.output(k)] = appendOutputNode(first, k, n.output(k));
    return std::nullopt;
}

NodeId GraphBuilder::appendOutputNode(const Node& first, int output, const std::string& tensor)
{
    Node node = first;
    node.id = static_cast<NodeId>(m_graph.nodes.size());
    node.op.attrs.set("onnx_output", std::int64_t{output});
    node.name = validUtf8(tensor);
    node.shape = outputShape(tensor, node.id, *node.name);
    return append(std::move(node));
}

std::optional<Diagnostic> GraphBuilder::addOutputs()
{
    for (const auto& v : m_proto.output()) {
        auto p = producer(v.name(), nullptr);
        if (!p)
            return p.error();
        m_graph.outputs.push_back(*p);
    }
    return std::nullopt;
}

Result<NodeId> GraphBuilder::producer(const std::string& tensor, const NodeContext* user)
{
    if (auto it = m_produced.find(tensor); it != m_produced.end())
        return it->second;
    const std::string where = user ? " (needed by " + user->label() + ")" : " (a graph output)";
    if (auto it = m_unsupportedOutputs.find(tensor); it != m_unsupportedOutputs.end())
        return Diagnostic::error(it->second + where);
    auto c = m_constants.find(tensor);
    if (c == m_constants.end()) {
        if (user)
            return user->error("input '" + tensor
                               + "' is not produced by any earlier node, initializer or graph input");
        return Diagnostic::error("graph output '" + tensor + "' is not produced by any node, initializer or input");
    }
    Node n;
    n.id = static_cast<NodeId>(m_graph.nodes.size());
    auto named = m_constantNames.find(tensor);
    const auto elements = c->second.shape.elements();
    if (named != m_constantNames.end() || (elements && *elements <= kConstantElements)) {
        n.op = Op::make(OpKind::Constant);
        n.name = named != m_constantNames.end() ? named->second : validUtf8(tensor);
    } else {
        Attrs a;
        a.set("name", validUtf8(tensor));
        n.op = Op::make(OpKind::Param, std::move(a));
        n.name = validUtf8(tensor);
    }
    n.shape = c->second.shape;
    n.data = shareBytes(c->second);
    if (!c->second.missingFile.empty())
        markMissingData(n, c->second.missingFile);
    const NodeId id = append(std::move(n));
    m_produced[tensor] = id;
    return id;
}

void GraphBuilder::inferOwnShape(const Node& node, const std::string& tensor)
{
    std::vector<Shape> shapes;
    std::vector<const Node*> inputs;
    for (NodeId id : node.inputs) {
        inputs.push_back(&m_graph.nodes[static_cast<std::size_t>(id)]);
        shapes.push_back(inputs.back()->shape);
    }
    if (auto s = inferShape(node.op, shapes, inputs))
        m_shapes[tensor] = *s;
}

NodeId GraphBuilder::append(Node n)
{
    const NodeId id = n.id;
    m_graph.add(std::move(n));
    return id;
}

Shape GraphBuilder::outputShape(const std::string& tensor, NodeId id, const std::string& nodeName)
{
    if (auto it = m_shapes.find(tensor); it != m_shapes.end())
        return it->second;
    Shape s;
    if (auto it = m_dtypes.find(tensor); it != m_dtypes.end())
        s.dtype = it->second;
    if (m_warnings)
        m_warnings->push_back(Diagnostic::atNode(Diagnostic::Severity::Warning, id, nodeName,
                                                 "no shape is known for '" + tensor
                                                     + "' (shape inference gave none); shown as a rank-0 "
                                                     + std::string(dtypeName(s.dtype))));
    return s;
}

} // namespace costscope::onnx_import
