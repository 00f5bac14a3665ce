// SPDX-License-Identifier: MIT
// Layered layout in five steps: (1) break cycles by reversing DFS back edges, (2) longest-path layering with
// sources pulled next to their consumers, (3) dummy nodes so every edge spans one layer (the long edges leaving
// one node share them as a trunk), (4) median sweeps for crossing reduction (best order kept, early stop),
// (5) coordinates by per-layer least squares (coordinates.cpp). Written by hand because dot and dagre take
// seconds to minutes on ML-sized graphs.
//
// Relayout after a group opens or closes: the previous result's hint gives every unchanged node its old layer
// as a lower bound and its old relative order as the starting order, so unchanged parts stay where the user
// last saw them and the sweeps start near a good order (they usually stop after one or two).
#include "layout/layered_layout.h"
#include "layout/layout_steps.h"
#include <algorithm>
#include <unordered_map>

namespace costscope::layout {

LayoutHint LayoutResult::hint() const
{
    LayoutHint h;
    h.keys = keys;
    h.layers = layers;
    std::vector<int> perLayer(static_cast<std::size_t>(layerCount), 0);
    h.orderKeys.resize(centers.size());
    // Normalised position within the layer from the centre coordinate across the layer direction.
    std::vector<std::vector<std::pair<double, std::size_t>>> byLayer(static_cast<std::size_t>(layerCount));
    for (std::size_t i = 0; i < centers.size(); ++i)
        byLayer[static_cast<std::size_t>(layers[i])].emplace_back(centers[i].x + centers[i].y * 1e-9, i);
    for (auto& l : byLayer) {
        std::sort(l.begin(), l.end());
        for (std::size_t k = 0; k < l.size(); ++k)
            h.orderKeys[l[k].second] = l.size() > 1 ? static_cast<double>(k) / static_cast<double>(l.size() - 1) : 0.5;
    }
    return h;
}

LayoutResult layeredLayout(const LayoutInput& in, const LayoutHint* hint, const std::atomic<bool>* cancel)
{
    using namespace detail;
    LayoutResult r;
    const int n = static_cast<int>(in.nodes.size());
    const bool tb = in.direction == Direction::TopToBottom;
    r.keys.reserve(in.nodes.size());
    for (const auto& node : in.nodes)
        r.keys.push_back(node.key);

    std::vector<int> hintLayers(in.nodes.size(), -1);
    std::vector<double> keys(in.nodes.size());
    std::unordered_map<std::string, std::size_t> hinted;
    if (hint)
        for (std::size_t i = 0; i < hint->keys.size(); ++i)
            hinted.emplace(hint->keys[i], i);
    for (std::size_t i = 0; i < in.nodes.size(); ++i) {
        keys[i] = n > 1 ? static_cast<double>(i) / (n - 1) : 0.0;
        if (auto it = hinted.find(in.nodes[i].key); it != hinted.end() && !in.nodes[i].key.empty()) {
            hintLayers[i] = hint->layers[it->second];
            keys[i] = hint->orderKeys[it->second];
        }
    }

    const AcyclicEdges acyclic = breakCycles(n, in.edges);
    const std::vector<int> layers = assignLayers(n, acyclic.edges, hintLayers);

    LayeredGraph g;
    g.realCount = n;
    g.layer = layers;
    g.up.assign(in.nodes.size(), {});
    g.down.assign(in.nodes.size(), {});
    for (const auto& node : in.nodes) {
        g.minor.push_back(tb ? node.width : node.height);
        g.major.push_back(tb ? node.height : node.width);
    }
    // Long edges leaving one node share their dummies (edge concentration, like dot's concentrate=true): a
    // weight or constant that every block of a transformer uses would otherwise run one parallel dummy chain per
    // use through the whole drawing (32 000 dummies for gpt2's 618 nodes, 4 500 as trunks), and the parallel
    // lines cross everything together anyway. Each use branches off the trunk just above its consumer.
    std::vector<std::vector<int>> trunks(in.nodes.size()); // per node: its trunk's dummies, top to bottom
    std::vector<std::vector<int>> chains(in.edges.size());  // per input edge: layered-graph nodes, top to bottom
    for (std::size_t e = 0; e < in.edges.size(); ++e) {
        if (acyclic.dropped[e])
            continue;
        int from = in.edges[e].from;
        int to = in.edges[e].to;
        if (acyclic.reversed[e])
            std::swap(from, to);
        auto& chain = chains[e];
        auto& trunk = trunks[static_cast<std::size_t>(from)];
        chain.push_back(from);
        const int fromLayer = g.layer[static_cast<std::size_t>(from)];
        for (int l = fromLayer + 1; l < g.layer[static_cast<std::size_t>(to)]; ++l) {
            const auto k = static_cast<std::size_t>(l - fromLayer - 1);
            if (k == trunk.size()) {
                const int d = static_cast<int>(g.layer.size());
                const int above = k == 0 ? from : trunk.back();
                g.layer.push_back(l);
                g.up.push_back({above});
                g.down.emplace_back();
                g.down[static_cast<std::size_t>(above)].push_back(d);
                g.minor.push_back(0);
                g.major.push_back(0);
                keys.push_back(keys[static_cast<std::size_t>(from)]);
                trunk.push_back(d);
            }
            chain.push_back(trunk[k]);
        }
        g.down[static_cast<std::size_t>(chain.back())].push_back(to);
        g.up[static_cast<std::size_t>(to)].push_back(chain.back());
        chain.push_back(to);
    }

    r.sweeps = reduceCrossings(g, keys, in.maxSweeps, cancel);
    const std::vector<double> minorPos = assignCoordinates(g, in.nodeGap, cancel);
    r.cancelled = cancel && cancel->load();

    std::vector<double> layerThickness(g.order.size(), 0);
    for (std::size_t v = 0; v < g.layer.size(); ++v)
        layerThickness[static_cast<std::size_t>(g.layer[v])] =
            std::max(layerThickness[static_cast<std::size_t>(g.layer[v])], g.major[v]);
    std::vector<double> layerCentre(g.order.size(), 0);
    double acc = 0;
    for (std::size_t l = 0; l < g.order.size(); ++l) {
        layerCentre[l] = acc + layerThickness[l] / 2;
        acc += layerThickness[l] + in.layerGap;
    }
    const double majorExtent = g.order.empty() ? 0 : acc - in.layerGap;
    double minorExtent = 0;
    for (std::size_t v = 0; v < minorPos.size(); ++v)
        minorExtent = std::max(minorExtent, minorPos[v] + g.minor[v] / 2);

    auto point = [&](double minor, double major) { return tb ? Point{minor, major} : Point{major, minor}; };
    r.layerCount = static_cast<int>(g.order.size());
    r.layers.assign(layers.begin(), layers.end());
    r.centers.resize(in.nodes.size());
    for (std::size_t v = 0; v < in.nodes.size(); ++v)
        r.centers[v] = point(minorPos[v], layerCentre[static_cast<std::size_t>(g.layer[v])]);
    r.routes.resize(in.edges.size());
    for (std::size_t e = 0; e < in.edges.size(); ++e) {
        const auto& chain = chains[e];
        if (chain.empty())
            continue;
        auto& route = r.routes[e];
        const auto top = static_cast<std::size_t>(chain.front());
        const auto bottom = static_cast<std::size_t>(chain.back());
        route.push_back(point(minorPos[top], layerCentre[static_cast<std::size_t>(g.layer[top])] + g.major[top] / 2));
        for (std::size_t k = 1; k + 1 < chain.size(); ++k) {
            const auto d = static_cast<std::size_t>(chain[k]);
            route.push_back(point(minorPos[d], layerCentre[static_cast<std::size_t>(g.layer[d])]));
        }
        route.push_back(
            point(minorPos[bottom], layerCentre[static_cast<std::size_t>(g.layer[bottom])] - g.major[bottom] / 2));
        if (acyclic.reversed[e])
            std::reverse(route.begin(), route.end());
    }
    r.crossings = countCrossings(g);
    r.width = tb ? minorExtent : majorExtent;
    r.height = tb ? majorExtent : minorExtent;
    wrapIntoColumns(r, in);
    return r;
}

} // namespace costscope::layout
