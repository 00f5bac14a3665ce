// SPDX-License-Identifier: MIT
#pragma once

namespace costscope {

class CanvasView;
class DocumentController;
class GraphPresenter;
class GraphScene;
struct GraphCost;

// How an opened graph is first shown: fitted to the window; where that leaves the boxes too small to read
// (zoom under kFitReadsZoom), at the legible zoom instead, centred on the costliest node of `cost` (its box, or
// its collapsed group's), or on the top of the graph without costs.
void showFirstView(CanvasView* canvas, const GraphScene& scene, const GraphCost* cost);

// The zoom under which boxes stop saying their op legibly: the canvas wraps a long graph into columns and a
// zoomed-out box says one short word ("Conv", "MatMul") as large as its box allows, so that a graph of a hundred
// or two nodes still reads when fitted (labels of 7 px and more: tests/ui/test_fit_legibility).
inline constexpr double kFitReadsZoom = 0.2;
// The zoom of the close-up a graph too large for that opens at: box labels with their costs.
inline constexpr double kLegibleZoom = 0.55;

// Shows each graph `documents` opens by showFirstView, once it is laid out and its costs arrived (or laid out, when
// the window has no cost provider); the user's own moves before that are not overridden afterwards.
void installFirstView(GraphPresenter* presenter, DocumentController* documents);

} // namespace costscope
