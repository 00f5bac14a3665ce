// SPDX-License-Identifier: MIT
#pragma once

#include "formats/onnx_tensors.h"
#include "ir/op.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace costscope::onnx_import {

// One input of a mapped op: an input of the ONNX node, or the output of an earlier op of the same mapping (chains
// such as Max of three inputs).
struct InputRef {
    int onnxInput = -1;
    int mapped = -1;
};

// One Costscope node made from an ONNX node. `output` is the ONNX output it stands for (Split makes one Narrow per
// output); helper ops inside a chain stand for none.
struct MappedOp {
    Op op;
    std::vector<InputRef> inputs;
    std::optional<int> output = 0;
};

// What the op mapping may know about an ONNX node: its attributes, which inputs are constants, and the shapes
// shape inference found.
class NodeContext {
public:
    using ConstLookup = std::function<const ConstTensor*(const std::string&)>;
    using ShapeLookup = std::function<const Shape*(const std::string&)>;

    NodeContext(const onnx::NodeProto& node, int index, int opset, ConstLookup constants, ShapeLookup shapes,
                Diagnostics* warnings);

    const onnx::NodeProto& node() const { return m_node; }
    int opset() const { return m_opset; }
    const std::string& opType() const { return m_node.op_type(); }

    const onnx::AttributeProto* attr(const std::string& name) const;
    std::optional<std::int64_t> attrInt(const std::string& name) const;
    std::optional<double> attrFloat(const std::string& name) const;
    std::optional<std::string> attrString(const std::string& name) const;
    std::optional<std::vector<std::int64_t>> attrInts(const std::string& name) const;

    // True when input i is given (present and not the empty name ONNX uses for "omitted").
    bool hasInput(int i) const;
    const ConstTensor* constInput(int i) const;
    std::optional<std::vector<std::int64_t>> constInputInts(int i) const;
    std::optional<double> constInputScalar(int i) const;
    const Shape* inputShape(int i) const;
    const Shape* outputShape(int i) const;
    int inputCount() const { return m_node.input_size(); }
    int outputCount() const { return m_node.output_size(); }

    // "ONNX node #12 'conv1' (Conv): <what>" as an error or a warning.
    Diagnostic error(const std::string& what) const;
    void warn(const std::string& what) const;
    std::string label() const;

private:
    const onnx::NodeProto& m_node;
    int m_index;
    int m_opset;
    ConstLookup m_constants;
    ShapeLookup m_shapes;
    Diagnostics* m_warnings;
};

// Maps an ONNX node (default or ai.onnx domain) to catalogue ops; nullopt when the op type has no mapping and
// loads as an unknown op.
std::optional<Result<std::vector<MappedOp>>> mapKnownNode(const NodeContext& ctx);

// Per-family mappings, called by mapKnownNode.
using Mapped = Result<std::vector<MappedOp>>;
Mapped single(Op op, std::vector<int> onnxInputs);
std::optional<Mapped> mapConvLike(const NodeContext& ctx);
std::optional<Mapped> mapLayout(const NodeContext& ctx);
std::optional<Mapped> mapElementWise(const NodeContext& ctx);

} // namespace costscope::onnx_import
