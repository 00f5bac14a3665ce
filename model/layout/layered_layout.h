// SPDX-License-Identifier: MIT
#pragma once
// Qt-free on purpose: the layout is unit-tested and benchmarked headless, and runs on worker threads.
#include <atomic>
#include <string>
#include <vector>

namespace costscope::layout {

enum class Direction { TopToBottom, LeftToRight };

struct Point {
    double x = 0;
    double y = 0;
};

struct LayoutInput {
    struct Node {
        double width = 120;
        double height = 40;
        std::string key; // stable identity across relayouts (node id or group path)
    };
    struct Edge {
        int from = 0;
        int to = 0;
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    Direction direction = Direction::TopToBottom;
    double nodeGap = 24;  // between neighbours in one layer
    double layerGap = 48; // between layers
    int maxSweeps = 24;   // crossing reduction down+up sweeps (stops early when nothing improves)
    // A window's size in layout units at zoom 1 (0 x 0: none). A drawing that fits it at a smaller zoom than need be
    // because it is much longer than the window's shape is folded into side-by-side columns (rows when left to
    // right) of consecutive layers, as few as give the largest zoom up to 1. The window shows wrapMargin around the
    // drawing on every side.
    double wrapWidth = 0;
    double wrapHeight = 0;
    double wrapMargin = 0;
};

// What a previous layout knew, keyed by LayoutInput::Node::key; lets a relayout keep unchanged parts in place.
struct LayoutHint {
    std::vector<std::string> keys;
    std::vector<int> layers;
    std::vector<double> orderKeys; // position within the layer, normalised to [0,1]
};

struct LayoutResult {
    std::vector<Point> centers;             // per input node
    std::vector<int> layers;                // per input node
    std::vector<int> columns;               // per input node, the column of a folded drawing; empty: not folded
    std::vector<std::vector<Point>> routes; // per input edge, from source border to target border
    double width = 0;
    double height = 0;
    int layerCount = 0;
    long long crossings = 0; // between adjacent layers, dummies included
    int sweeps = 0;          // crossing-reduction sweeps actually run
    bool cancelled = false;
    LayoutHint hint() const;
    std::vector<std::string> keys;
};

// Layered (Sugiyama) layout; see layered_layout.cpp for the steps. `cancel` may be null.
LayoutResult layeredLayout(const LayoutInput& in, const LayoutHint* hint = nullptr,
                           const std::atomic<bool>* cancel = nullptr);

// Crossings between straight segments of routed polylines (used to compare with other layout engines). Segments
// that coincide (edges sharing a trunk) are one drawn line and cross something once, or, per edge, once for each
// edge along them (how a drawing without trunks, like dot's, would count the same edges).
enum class Coinciding { OneLine, PerEdge };
long long countRouteCrossings(const std::vector<std::vector<Point>>& routes,
                              Coinciding coinciding = Coinciding::OneLine);

} // namespace costscope::layout
