// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/cost_model.h"
#include "ir/graph.h"
#include <QColor>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace costscope {

// Measured: the time each node took in the last run of this graph (see OverlayModel::setMeasured).
enum class OverlayMode { None, Cost, IoBytes, SyncPoints, Dominant, Measured };

// How the heat map's colour scale is set. Auto: from the nodes' own range, widened to at least kMinHeatSpan about
// its geometric middle, so that nodes within a few percent of each other (a launch-bound device where every node
// is 4.0 to 4.4 µs) share one colour instead of spanning the whole ramp. Absolute: fixed ends for the quantity
// (100 ns to 100 ms, 1 KiB to 1 GiB), so that colours compare across graphs and devices.
enum class HeatScale { Auto, Absolute };
inline constexpr double kMinHeatSpan = 10.0;

// What a collapsed group shows about the nodes inside it.
struct GroupAggregate {
    std::size_t nodes = 0;
    bool hasCost = false;
    double costNs = 0;
    std::uint64_t ioBytes = 0;
    int syncPoints = 0;
};

// Turns a GraphCost (or a run's measured times) into per-node colours and badges for the canvas (log colour scale
// for magnitudes, categorical colours for "what dominates").
class OverlayModel {
public:
    enum class Term { Compute, Memory, Dispatch, Sync };

    void setGraph(std::shared_ptr<const Graph> graph);
    void setCost(std::shared_ptr<const GraphCost> cost);
    // Measured ns per node index of `graph` (nullopt: not timed). Times for a graph other than the current one are
    // ignored, and a new graph drops them: they describe something no longer shown.
    void setMeasured(const std::shared_ptr<const Graph>& graph, std::vector<std::optional<double>> nsByNode);
    const std::shared_ptr<const Graph>& graph() const { return m_graph; }
    bool hasMeasured() const { return !m_measured.empty(); }
    const std::vector<std::optional<double>>& measured() const { return m_measured; }
    void setMode(OverlayMode mode);
    OverlayMode mode() const { return m_mode; }
    const GraphCost* cost() const { return m_cost.get(); }
    bool active() const;

    // The magnitude the mode shows for a node (predicted or measured ns, bytes or 0/1); nullopt when it has none.
    std::optional<double> value(std::size_t nodeIndex) const;
    // Invalid QColor when the overlay is off or the node has no value.
    QColor colour(std::size_t nodeIndex) const;
    QColor colourForValue(double v) const;
    QString badge(std::size_t nodeIndex) const; // "SYNC" on sync points
    // The node's time as a box says it: measured in the Measured mode, else predicted; empty when it has none.
    QString costText(std::size_t nodeIndex) const;
    bool isSyncPoint(std::size_t nodeIndex) const;
    std::optional<Term> dominantTerm(std::size_t nodeIndex) const;
    GroupAggregate aggregate(const std::vector<std::size_t>& nodeIndices) const;
    // The nodes' smallest and largest positive value.
    double minValue() const { return m_min; }
    double maxValue() const { return m_max; }
    void setScale(HeatScale scale);
    HeatScale scale() const { return m_scale; }
    // The values at the pale and the dark end of the colour scale (see HeatScale); values outside are clamped.
    double scaleMin() const { return m_scaleMin; }
    double scaleMax() const { return m_scaleMax; }

    static QColor heat(double t); // 0..1 on the heat ramp
    static QColor termColour(Term t);
    static QString termName(Term t);

private:
    const NodeCost* nodeCost(std::size_t nodeIndex) const;
    void rescale();

    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const GraphCost> m_cost;
    std::vector<std::optional<double>> m_measured; // empty: no run of m_graph
    OverlayMode m_mode = OverlayMode::Cost;
    HeatScale m_scale = HeatScale::Auto;
    double m_min = 0;
    double m_max = 0;
    double m_scaleMin = 0;
    double m_scaleMax = 0;
};

QString formatNs(double ns);
QString formatBytes(double bytes);

} // namespace costscope
