// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "ir/op.h"
#include "ir/shape.h"
#include "ir/tensor_bytes.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace costscope {

// Keys a file had that Costscope does not interpret, kept as JSON text and written back on save.
using Extras = std::vector<std::pair<std::string, RawJson>>;

class Graph;

// A graph attribute of a control-flow op (If's then_branch and else_branch, Loop's and Scan's body). Its Input
// nodes are first the ONNX subgraph's own inputs, then the values it reads from the enclosing graph, which the
// owning node takes as extra inputs: outerInputs[i] is the position in Node::inputs of the i-th of them.
struct Subgraph {
    std::string attribute;
    std::shared_ptr<const Graph> graph;
    std::vector<std::size_t> outerInputs;
};

struct Node {
    NodeId id = 0;
    Op op;
    std::vector<NodeId> inputs;
    Shape shape;
    std::optional<std::string> name;
    std::string scope; // grouping path, '/'-separated ("h.0/attn")
    TensorData data;   // values of a Param or Constant when the file has them
    Extras extras;
    std::vector<Subgraph> subgraphs; // a control-flow op's graphs; empty for every other node

    // Input/Param leaf name, else the node's name, else "".
    std::string displayName() const;
    bool operator==(const Node& o) const;
};

class Graph {
public:
    std::string name;
    std::vector<Node> nodes;
    std::vector<NodeId> outputs;
    Extras extras;

    // Index of the node with this id in `nodes`; rebuilt lazily after edits (call invalidate()). Safe to call from
    // several threads on one const Graph (analysis workers share one); edits need the graph to themselves.
    std::optional<std::size_t> indexOf(NodeId id) const;
    const Node* find(NodeId id) const;
    Node* find(NodeId id);
    void invalidate();
    NodeId nextId() const;
    Node& add(Node n); // assigns nothing: the caller picks the id

    // Node positions in an order where every input comes before its user; an error names a node on a cycle.
    Result<std::vector<std::size_t>> topologicalOrder() const;
    bool isOutput(NodeId id) const;
    // consumers()[i] lists the positions of the nodes that read node i (once per use).
    std::vector<std::vector<std::size_t>> consumers() const;
    std::vector<std::string> symbols() const;
    bool operator==(const Graph& o) const;

private:
    // Id -> position, a cache rather than part of the value: a copy of the graph starts without it (and so never
    // reads another thread's half-built index).
    struct LazyIndex {
        LazyIndex() = default;
        LazyIndex(const LazyIndex&) {}
        LazyIndex& operator=(const LazyIndex&)
        {
            const std::lock_guard lock(mutex);
            positions.clear();
            return *this;
        }
        std::unordered_map<NodeId, std::size_t> positions;
        std::mutex mutex;
    };
    void buildIndex() const;
    mutable LazyIndex m_index;
};

} // namespace costscope
