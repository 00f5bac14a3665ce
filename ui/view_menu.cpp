// SPDX-License-Identifier: MIT
#include "view_menu.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "graph_presenter.h"
#include "panels/search_bar.h"
#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace costscope {

QMenu* addViewMenu(QMainWindow* window, GraphPresenter* presenter)
{
    GraphScene* scene = presenter->views().scene;
    CanvasView* canvas = presenter->views().canvas;
    SearchBar* search = presenter->views().search;
    QMenu* view = window->menuBar()->addMenu(QObject::tr("&View"));
    QAction* params = view->addAction(QObject::tr("Show &Parameters"));
    params->setCheckable(true);
    params->setChecked(scene->showParams());
    params->setObjectName(QStringLiteral("actionShowParams"));
    QObject::connect(params, &QAction::toggled, scene, &GraphScene::setShowParams);
    QAction* lr = view->addAction(QObject::tr("&Left to Right"));
    lr->setObjectName(QStringLiteral("actionLeftToRight"));
    lr->setCheckable(true);
    QObject::connect(lr, &QAction::toggled, presenter, [presenter, scene](bool on) {
        presenter->fitOnNextLayout(true);
        scene->setDirection(on ? layout::Direction::LeftToRight : layout::Direction::TopToBottom);
    });
    view->addSeparator();
    view->addAction(QObject::tr("Zoom &In"), QKeySequence::ZoomIn, canvas, [canvas] { canvas->zoomBy(1.25); });
    view->addAction(QObject::tr("Zoom &Out"), QKeySequence::ZoomOut, canvas, [canvas] { canvas->zoomBy(0.8); });
    view->addAction(QObject::tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), canvas, &CanvasView::fitAll)
        ->setObjectName(QStringLiteral("actionFit"));
    QAction* minimap = view->addAction(QObject::tr("&Minimap"));
    minimap->setObjectName(QStringLiteral("actionMinimap"));
    minimap->setCheckable(true);
    minimap->setChecked(true);
    QObject::connect(minimap, &QAction::toggled, canvas, &CanvasView::setMinimapVisible);
    QAction* absolute = view->addAction(QObject::tr("&Absolute Heat Scale"));
    absolute->setObjectName(QStringLiteral("actionAbsoluteHeat"));
    absolute->setCheckable(true);
    absolute->setToolTip(
        QObject::tr("Colour costs from 100 ns to 100 ms and bytes from 1 KiB to 1 GiB, whatever the graph"));
    QObject::connect(absolute, &QAction::toggled, presenter, [presenter](bool on) {
        presenter->overlay().setScale(on ? HeatScale::Absolute : HeatScale::Auto);
        presenter->refreshOverlay();
    });
    view->addSeparator();
    view->addAction(QObject::tr("&Collapse All Groups"), scene, &GraphScene::collapseAll)
        ->setObjectName(QStringLiteral("actionCollapseAll"));
    view->addAction(QObject::tr("&Expand All Groups"), scene, &GraphScene::expandAll)
        ->setObjectName(QStringLiteral("actionExpandAll"));
    view->addAction(QObject::tr("&Find…"), QKeySequence::Find, search, &SearchBar::focusSearch)
        ->setObjectName(QStringLiteral("actionFind"));
    view->addAction(QObject::tr("Find &Next"), QKeySequence::FindNext, search, &SearchBar::next);
    view->addAction(QObject::tr("Find &Previous"), QKeySequence::FindPrevious, search, &SearchBar::previous);
    view->addSeparator();
    for (QDockWidget* dock : window->findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    return view;
}

} // namespace costscope
