// SPDX-License-Identifier: MIT
#pragma once

namespace costscope {

class CanvasView;
class DocumentController;
class GraphPresenter;
class GraphScene;
struct GraphCost;

// How an opened graph is first shown: fitted to the window; where that leaves the boxes too small to read
// (zoom under kLegibleZoom), at the legible zoom instead, centred on the costliest node of `cost` (its box, or
// its collapsed group's), or on the top of the graph without costs.
void showFirstView(CanvasView* canvas, const GraphScene& scene, const GraphCost* cost);

// The zoom under which box labels (8.5 pt titles, 7.5 pt details) stop being legible.
inline constexpr double kLegibleZoom = 0.55;

// Shows each graph `documents` opens by showFirstView, once it is laid out and its costs arrived (or laid out, when
// the window has no cost provider); the user's own moves before that are not overridden afterwards.
void installFirstView(GraphPresenter* presenter, DocumentController* documents);

} // namespace costscope
