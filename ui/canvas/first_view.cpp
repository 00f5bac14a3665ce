// SPDX-License-Identifier: MIT
#include "canvas/first_view.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "jobs/device_costs.h"
#include "main_window.h"
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

void installFirstView(MainWindow* window)
{
    auto state = std::make_shared<FirstViewState>();
    auto showIfReady = [window, state] {
        const GraphCost* cost = window->overlay().cost();
        if (!state->waiting || !state->laidOut || !cost)
            return;
        state->waiting = false;
        if (visibleSceneRect(window->canvas()) != state->shown)
            return;
        showFirstView(window->canvas(), *window->scene(), cost);
    };
    QObject::connect(window, &MainWindow::graphLoaded, window, [state] {
        state->waiting = true;
        state->laidOut = false;
    });
    QObject::connect(window, &MainWindow::layoutReady, window, [window, state, showIfReady] {
        if (!state->waiting || state->laidOut) // only the opened graph's first layout; later ones are the user's edits
            return;
        if (window->restoredSavedView()) { // a saved document's own view wins over the first view
            state->waiting = false;
            return;
        }
        state->laidOut = true;
        // Laid out: the window fitted it; a legible part is shown now, and again around the costliest once costed.
        showFirstView(window->canvas(), *window->scene(), window->overlay().cost());
        state->shown = visibleSceneRect(window->canvas());
        showIfReady();
    });
    QObject::connect(window->openGraph(), &OpenGraphFeed::costsUpdated, window, showIfReady);
}

} // namespace costscope
