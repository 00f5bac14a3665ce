// SPDX-License-Identifier: MIT
#pragma once

#include "formats/onnx_ops.h"
#include "ir/graph.h"

#include <map>
#include <unordered_map>

namespace costscope::onnx_import {

// Builds the Costscope graph from a (shape-inferred) ONNX graph. Leaves for initializers and Constant nodes are
// made when first used as a kept input, so constants folded into attributes (Reshape shapes, Slice bounds) and
// unused initializers leave no node behind, and every node's inputs come before it: ids 0..N-1 are a topological
// order.
class GraphBuilder {
public:
    // A value a subgraph reads from the graph around it: an Input node of the subgraph, after its own inputs.
    struct OuterValue {
        std::string name;
        Shape shape;
    };

    // `external` reads initializers kept in files beside the model; without it they load without values. `outer`:
    // for a control-flow op's subgraph (onnx_subgraphs.cpp), the enclosing values it reads.
    GraphBuilder(const onnx::GraphProto& g, int opset, Diagnostics* warnings, ExternalData* external = nullptr,
                 std::vector<OuterValue> outer = {});
    Result<Graph> build();

private:
    // Initializers at or under this many elements become Constant nodes, larger ones Params.
    static constexpr std::uint64_t kConstantElements = 16;

    std::optional<Diagnostic> collectShapes();
    std::optional<Diagnostic> collectInitializers();
    std::optional<Diagnostic> addGraphInputs();
    std::optional<Diagnostic> addConstantNode(const onnx::NodeProto& n, int index);
    std::optional<Diagnostic> addNode(const onnx::NodeProto& n, int index);
    std::optional<Diagnostic> addMapped(const onnx::NodeProto& n, const NodeContext& ctx, std::vector<MappedOp> ops);
    std::optional<Diagnostic> addUnknown(const onnx::NodeProto& n, const NodeContext& ctx);
    // The ONNX node as an unknown op (its attributes, inputs and input slots), not yet added.
    Result<Node> unknownNode(const onnx::NodeProto& n, const NodeContext& ctx);
    // If, Loop and Scan: each graph attribute imported as a Subgraph of `node`, the enclosing values it reads
    // appended to node.inputs (onnx_subgraphs.cpp); Loop's constant trip count as attribute trip_count.
    std::optional<Diagnostic> addSubgraphs(const onnx::NodeProto& n, const NodeContext& ctx, Node& node, Attrs& attrs);
    std::optional<Diagnostic> addOutputs();
    // The node standing for a tensor, making a constant's leaf on first use; an error says why there is none.
    Result<NodeId> producer(const std::string& tensor, const NodeContext* user);
    NodeId append(Node n);
    // A node of a multi-output ONNX op standing for one later output: `first` (output 0) with onnx_output set, so
    // that a backend running the op by name computes that output.
    NodeId appendOutputNode(const Node& first, int output, const std::string& tensor);
    Shape outputShape(const std::string& tensor, NodeId id, const std::string& nodeName);
    // Where libonnx's inference gave the tensor no shape (ops of opsets past 17), Costscope's own inference of the
    // mapped op from its inputs' shapes.
    void inferOwnShape(const Node& node, const std::string& tensor);

    const onnx::GraphProto& m_proto;
    int m_opset;
    std::vector<OuterValue> m_outer;
    Diagnostics* m_warnings;
    ExternalData* m_external;
    Graph m_graph;
    std::unordered_map<std::string, Shape> m_shapes;
    std::unordered_map<std::string, DType> m_dtypes; // tensors whose type is known but not their shape
    // Tensors of an ONNX type held by conversion (ir/narrow_types.h), by its ONNX name: the node producing one
    // gets it as "onnx_to", so that a backend rounds onto that type's values.
    std::unordered_map<std::string, std::string> m_narrowTypes;
    std::unordered_map<std::string, ConstTensor> m_constants;
    std::unordered_map<std::string, std::string> m_constantNames; // tensor → Constant node name
    std::unordered_map<std::string, NodeId> m_produced;
    std::unordered_map<std::string, std::string> m_unsupportedOutputs; // tensor → why it cannot be used
};

} // namespace costscope::onnx_import
