// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>
#include <vector>

// Edits of a graph as pure functions: each takes a graph and returns the edited copy (or an error that names the
// node and says what is wrong), so the GUI's undo stack can keep whole graphs and nothing edits in place.
// Every edit re-infers the shapes of the nodes it touches and of everything downstream of them.
namespace costscope::edit {

// An op from the palette with the attributes it needs to be valid (Binary → Add, Softmax → axis -1, ...).
Op defaultOp(OpKind kind);

// Adds `node` with a fresh id (returned in *newId); its inputs must name existing nodes. A leaf keeps the shape
// it is given; any other node gets the shape inferred from its inputs where they fit.
Result<Graph> addNode(const Graph& g, Node node, NodeId* newId = nullptr);
// Removes the nodes; their consumers lose those inputs (and may turn invalid), outputs naming them are dropped.
Result<Graph> removeNodes(const Graph& g, const std::vector<NodeId>& ids);
// Connects `from`'s output to input `slot` of `to`: slot == inputs.size() appends, a smaller slot replaces that
// input. Refused: an unknown id, a slot past the end, more inputs than the op takes, a cycle.
Result<Graph> connect(const Graph& g, NodeId from, NodeId to, std::size_t slot);
// Removes input `slot` of `to`.
Result<Graph> disconnect(const Graph& g, NodeId to, std::size_t slot);
// Removes the edges `from` → `to`: every input of `to` that reads `from`.
Result<Graph> removeEdges(const Graph& g, const std::vector<std::pair<NodeId, NodeId>>& edges);
// Input and Param nodes carry their name in the op; other nodes in Node::name. An empty name clears it.
Result<Graph> rename(const Graph& g, NodeId id, const std::string& name);
// Sets attribute `key` from text in the type the attribute already has ("[1, 2]", "1e-5", "true", "Gelu").
// A key the op does not have yet is added with the type the text reads as.
Result<Graph> setAttribute(const Graph& g, NodeId id, const std::string& key, const std::string& text);
// The shape of an Input, Param or Constant, from text such as "F32[batch,784]"; other nodes' shapes are inferred.
Result<Graph> setLeafShape(const Graph& g, NodeId id, const std::string& text);
// Marks or unmarks a node as a graph output.
Result<Graph> setOutput(const Graph& g, NodeId id, bool output);
// Puts the nodes in one group (scope path); "" ungroups them.
Result<Graph> setScope(const Graph& g, const std::vector<NodeId>& ids, const std::string& scope);

// The nodes of `ids` with their attributes and data, for the clipboard: a graph of its own, in which each tensor
// entering the set is an Input marked as external (keeping its producer's id and shape).
Graph copyFragment(const Graph& g, const std::vector<NodeId>& ids);
// Adds a fragment's nodes with fresh ids (returned in *newIds, in fragment order). A marked Input reconnects to the
// graph's node of the same id and shape (pasting into the graph copied from); elsewhere it becomes a real Input.
Result<Graph> pasteFragment(const Graph& g, const Graph& fragment, std::vector<NodeId>* newIds = nullptr);

// Re-infers the shapes of `changed` and of every node downstream of them, in topological order. A node whose inputs
// do not fit keeps its shape (graphProblems() reports it); propagation stops where a shape does not change.
void refreshShapes(Graph& g, const std::vector<NodeId>& changed);

struct NodeProblem {
    NodeId id = 0;
    std::string message;
};
// What makes nodes invalid, one entry per problem in graph order: the structural checks of validateGraph and
// inputs that do not fit an op's shape rule ("Conv: input has 3 channels, weight expects 4").
std::vector<NodeProblem> graphProblems(const Graph& g);

} // namespace costscope::edit
