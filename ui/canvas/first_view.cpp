// SPDX-License-Identifier: MIT
#include "canvas/first_view.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "document_controller.h"
#include "graph_presenter.h"
#include "jobs/device_costs.h"
#include <memory>

namespace costscope {

void showFirstView(CanvasView* canvas, const GraphScene& scene, const GraphCost* cost)
{
    canvas->fitAll();
    if (canvas->zoom() >= kFitReadsZoom)
        return;
    canvas->zoomBy(kLegibleZoom / canvas->zoom());
    const NodeItem* costliest = nullptr;
    if (cost)
        if (const auto top = costliestNodes(*cost, 1); !top.empty())
            costliest = scene.itemForNode(top.front());
    if (costliest) {
        canvas->showSceneRect(costliest->sceneBoundingRect());
    } else {
        const QRectF all = scene.sceneRect();
        canvas->showSceneRect(QRectF(all.center().x(), all.top(), 1, 1));
    }
}

namespace {
// One opened graph's way to its first view: laid out, and costed where costs come.
struct FirstViewState {
    bool waiting = false;
    bool laidOut = false;
    QRectF shown; // the scene area shown once laid out: a view that left it was moved by the user
};

QRectF visibleSceneRect(const CanvasView* canvas)
{
    return canvas->mapToScene(canvas->viewport()->rect()).boundingRect();
}
} // namespace

void installFirstView(GraphPresenter* presenter, DocumentController* documents)
{
    CanvasView* canvas = presenter->views().canvas;
    const GraphScene* scene = presenter->views().scene;
    auto state = std::make_shared<FirstViewState>();
    auto showIfReady = [presenter, canvas, scene, state] {
        const GraphCost* cost = presenter->overlay().cost();
        if (!state->waiting || !state->laidOut || !cost)
            return;
        state->waiting = false;
        if (visibleSceneRect(canvas) != state->shown)
            return;
        showFirstView(canvas, *scene, cost);
    };
    QObject::connect(documents, &DocumentController::graphLoaded, presenter, [state] {
        state->waiting = true;
        state->laidOut = false;
    });
    QObject::connect(presenter, &GraphPresenter::layoutReady, presenter,
                     [presenter, canvas, scene, state, showIfReady] {
                         if (!state->waiting
                             || state->laidOut) // only the opened graph's first layout; later ones are the user's edits
                             return;
                         if (presenter->restoredSavedView()) { // a saved document's own view wins over the first view
                             state->waiting = false;
                             return;
                         }
                         state->laidOut = true;
                         // Laid out: the window fitted it; a legible part is shown now, and again around the costliest
                         // once costed.
                         showFirstView(canvas, *scene, presenter->overlay().cost());
                         state->shown = visibleSceneRect(canvas);
                         showIfReady();
                     });
    QObject::connect(presenter->feed(), &OpenGraphFeed::costsUpdated, presenter, showIfReady);
}

} // namespace costscope
