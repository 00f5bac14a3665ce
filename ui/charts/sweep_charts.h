// SPDX-License-Identifier: MIT
#pragma once
#include "charts/sweep_data.h"
#include <qcustomplot.h>

namespace costscope {

// The four sweep charts, drawn from one SweepData. Each call replaces the chart's graphs and items.
// Graph names: chart 1 the device labels; chart 2 the fusion target names ("Cuda"; "Cuda (selection)" for the
// canvas selection), their thresholds "<target> min_gain"; chart 3 the strategy names; chart 4 node labels.
// Markers (QCPItemStraightLine + QCPItemText) are named "crossover" (chart 1) and "flip:<target>" (chart 2).
void createSweepChartAxes(QCustomPlot* costs, QCustomPlot* gates, QCustomPlot* strategies, QCustomPlot* shares);
void plotDeviceCosts(QCustomPlot* plot, const SweepData& d);
// `shadeTarget`: the gate curve whose fuse / don't-fuse regions are shaded (the toolbar device's target).
void plotGateScores(QCustomPlot* plot, const SweepData& d, const std::string& shadeTarget);
void plotStrategies(QCustomPlot* plot, const SweepData& d);
void plotShares(QCustomPlot* plot, const SweepData& d);
// Emphasises the curve of `node` in chart 4 (none for nullopt); returns whether the node has a curve.
bool highlightShare(QCustomPlot* plot, std::optional<NodeId> node);

} // namespace costscope
