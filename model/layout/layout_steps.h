// SPDX-License-Identifier: MIT
#pragma once
// The steps of layeredLayout, exposed for the layout's own translation units only.
#include "layout/layered_layout.h"
#include <atomic>
#include <vector>

namespace costscope::layout::detail {

// The proper layered graph: real nodes first, then dummy nodes; every edge spans exactly one layer.
struct LayeredGraph {
    int realCount = 0;
    std::vector<int> layer;
    std::vector<std::vector<int>> down; // successors (layer + 1)
    std::vector<std::vector<int>> up;   // predecessors (layer - 1)
    std::vector<double> minor;          // size across the layer direction (width for top-to-bottom)
    std::vector<double> major;          // size along it
    std::vector<std::vector<int>> order; // nodes per layer, left to right
    std::vector<int> pos;                // index of each node in its layer
    bool isDummy(int v) const { return v >= realCount; }
};

struct AcyclicEdges {
    std::vector<LayoutInput::Edge> edges; // self loops dropped; back edges reversed
    std::vector<bool> reversed;           // per input edge
    std::vector<bool> dropped;            // self loops
};

// Reverses the back edges of a DFS so the graph becomes acyclic (cycle-safe layering).
AcyclicEdges breakCycles(int nodeCount, const std::vector<LayoutInput::Edge>& edges);

// Longest-path layering, then nodes with no more inputs than outputs sunk next to their first consumer; `hintLayers` (-1: none) are
// lower bounds so unchanged parts keep their layers. Empty layers are removed.
std::vector<int> assignLayers(int nodeCount, const std::vector<LayoutInput::Edge>& edges,
                              const std::vector<int>& hintLayers);

// Weighted-median sweeps, each followed by adjacent transpositions, every second one by whole moves of long-edge
// trunks and weight trees; keeps the best order seen and stops after four sweeps without improvement. Returns
// the sweeps run.
int reduceCrossings(LayeredGraph& g, const std::vector<double>& initialKeys, int maxSweeps,
                    const std::atomic<bool>* cancel);

// An in-tree that only feeds one node (weights: Param, Constant → ConstantOfShape, Param → Reshape), found once
// the layers are ordered. Root (the member feeding the consumer) first, then upwards layer by layer.
struct PendantTree {
    std::vector<int> members;
};
std::vector<PendantTree> pendantTrees(const LayeredGraph& g);

// Takes each tree out and puts it back where its edges cross least, if that beats where it is (pendants.cpp).
bool movePendantTrees(LayeredGraph& g, const std::vector<PendantTree>& trees);

long long countCrossings(const LayeredGraph& g);
long long countLayerCrossings(const LayeredGraph& g, int upperLayer);

// Positions across the layer direction (centres), by iterated weighted least squares per layer.
std::vector<double> assignCoordinates(const LayeredGraph& g, double nodeGap, const std::atomic<bool>* cancel);

// Folds the finished drawing into columns when LayoutInput::wrapWidth and wrapHeight ask for it and that fits them
// better (column_wrap.cpp). Layers and their order stay; positions and routes change.
void wrapIntoColumns(LayoutResult& r, const LayoutInput& in);

} // namespace costscope::layout::detail
