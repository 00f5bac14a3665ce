// SPDX-License-Identifier: MIT
#include "graph_views.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "panels/device_cost_table.h"
#include "panels/node_table_model.h"
#include "panels/node_table_panel.h"
#include "panels/property_panel.h"
#include "panels/summary_panel.h"
#include <QDockWidget>
#include <QMainWindow>
#include <QSplitter>
#include <QStatusBar>

namespace costscope {

GraphViews addGraphViews(QMainWindow* window, LegendWidget* legend, SearchBar* search)
{
    GraphViews v;
    v.scene = new GraphScene(window);
    v.canvas = new CanvasView(v.scene, window);
    window->setCentralWidget(v.canvas);
    v.tableModel = new NodeTableModel(window);
    v.table = new NodeTablePanel(v.tableModel, window);
    v.properties = new PropertyPanel(window);
    v.summary = new SummaryPanel(window);
    v.legend = legend;
    v.search = search;
    v.status = window->statusBar();
    auto* split = new QSplitter(Qt::Vertical, window);
    v.deviceTable = new DeviceCostTable(split);
    split->addWidget(v.properties);
    split->addWidget(v.deviceTable);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto dock = [window](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, window);
        d->setObjectName(name);
        d->setWidget(w);
        window->addDockWidget(area, d);
        return d;
    };
    v.propertiesDock =
        dock(split, QObject::tr("Properties"), QStringLiteral("propertiesDock"), Qt::RightDockWidgetArea);
    v.summaryDock = dock(v.summary, QObject::tr("Summary"), QStringLiteral("summaryDock"), Qt::RightDockWidgetArea);
    window->tabifyDockWidget(v.summaryDock, v.propertiesDock);
    auto* nodes = dock(v.table, QObject::tr("Nodes"), QStringLiteral("nodesDock"), Qt::BottomDockWidgetArea);
    window->resizeDocks({nodes}, {220}, Qt::Vertical);
    window->resizeDocks({v.summaryDock}, {340}, Qt::Horizontal);
    v.summaryDock->raise();
    return v;
}

} // namespace costscope
