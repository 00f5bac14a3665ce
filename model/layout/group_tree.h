// SPDX-License-Identifier: MIT
#pragma once
// Qt-free: the scope hierarchy and the "what is visible" graph are tested headless.
#include "ir/graph.h"
#include <string>
#include <vector>

namespace costscope {

// Groups from Node::scope paths ('/'-separated). Group 0 is the root (path "").
struct GroupTree {
    struct Group {
        std::string path;
        std::string label;
        int parent = -1;
        int depth = 0;
        std::vector<int> children;            // child groups
        std::vector<std::size_t> nodes;       // nodes directly in this group (graph positions)
        std::vector<std::size_t> allNodes;    // nodes in this group or below
    };
    std::vector<Group> groups;             // parents before children
    std::vector<int> groupOfNode;          // innermost group per graph position

    // A group with more than maxChildren direct members gets its direct nodes split into chunk groups
    // ("path/#2") of at most maxChildren nodes each, in graph order.
    static GroupTree build(const Graph& g, std::size_t maxChildren = 400);
    int find(const std::string& path) const;
};

// Scope used for grouping: the node's own, else that of its first scoped Param input (RLX only scopes Params,
// and a MatMul belongs where its weight does).
std::string effectiveScope(const Graph& g, std::size_t index);

// What the canvas draws: single nodes and collapsed groups, and the edges between them.
struct ViewGraph {
    struct Unit {
        bool isGroup = false;
        int group = -1;        // for a group unit
        std::size_t node = 0;  // for a node unit
        std::string key;       // "n:<id>" or "g:<path>": stable across relayouts
    };
    struct Edge {
        int from = 0;
        int to = 0;
        std::size_t sourceNode = 0; // the producing graph node (its shape gives the tensor bytes)
        int multiplicity = 1;       // tensors merged into this edge between collapsed groups
    };
    std::vector<Unit> units;
    std::vector<Edge> edges;
    std::vector<int> unitOfNode; // -1: hidden

    // `only`, when given, hides every node it does not mark (a neighbourhood view).
    static ViewGraph build(const Graph& g, const GroupTree& tree, const std::vector<bool>& collapsed, bool showParams,
                           const std::vector<bool>* only = nullptr);
};

// Groups to collapse initially so that roughly `budget` units remain visible: the shallowest levels first, and
// every level below the one chosen (so that opening a group shows its subgroups).
std::vector<bool> initialCollapse(const GroupTree& tree, std::size_t nodeCount, std::size_t budget = 1500);

} // namespace costscope
