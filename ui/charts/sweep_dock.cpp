// SPDX-License-Identifier: MIT
#include "charts/sweep_dock.h"
#include "canvas/graph_scene.h"
#include "charts/sweep_panel.h"
#include "main_window.h"
#include <QComboBox>
#include <QDockWidget>
#include <QSpinBox>

namespace costscope {

namespace {
// Every node whose box (or collapsed group's box) is selected on the canvas: a selected group fuses all it holds.
std::vector<NodeId> selectedNodes(const MainWindow* w)
{
    std::vector<NodeId> ids;
    if (w->graph())
        for (std::size_t i : w->scene()->selectedNodes())
            ids.push_back(w->graph()->nodes[i].id);
    return ids;
}

void syncToolbar(MainWindow* w, SweepPanel* panel)
{
    panel->setModel(w->modelSelector()->currentText());
    panel->setFocusDevice(w->deviceSelector()->currentText());
    Bindings base;
    base["batch"] = w->batchSpin()->value();
    panel->setBase(base);
}
} // namespace

SweepPanel* installSweepDock(MainWindow* w)
{
    auto* panel = new SweepPanel(w, SweepPanel::Arrangement::Tabs);
    auto* dock = new QDockWidget(QObject::tr("Sweeps"), w);
    dock->setObjectName(QStringLiteral("sweepDock"));
    dock->setWidget(panel);
    w->addDockWidget(Qt::RightDockWidgetArea, dock);
    // A tab beside Summary and Properties: the canvas keeps its width until the user asks for the charts.
    if (auto* summary = w->findChild<QDockWidget*>(QStringLiteral("summaryDock")))
        w->tabifyDockWidget(summary, dock);
    if (auto* summary = w->findChild<QDockWidget*>(QStringLiteral("summaryDock")))
        summary->raise();
    syncToolbar(w, panel);

    QObject::connect(w, &MainWindow::graphChanged, panel, [w, panel] { panel->setGraph(w->graph()); });
    QObject::connect(w->modelSelector(), &QComboBox::currentIndexChanged, panel, [w, panel] { syncToolbar(w, panel); });
    QObject::connect(w->deviceSelector(), &QComboBox::currentIndexChanged, panel, [w, panel] { syncToolbar(w, panel); });
    // The swept symbol overrides its base value, so a batch change only matters when sweeping another symbol.
    QObject::connect(w->batchSpin(), &QSpinBox::valueChanged, panel, [w, panel] {
        if (panel->data().symbol != "batch")
            syncToolbar(w, panel);
    });
    QObject::connect(w->scene(), &GraphScene::nodeSelected, panel, [w, panel](int index) {
        const bool valid = index >= 0 && w->graph() && static_cast<std::size_t>(index) < w->graph()->nodes.size();
        panel->setHighlightedNode(valid ? static_cast<long long>(w->graph()->nodes[static_cast<std::size_t>(index)].id)
                                        : -1);
    });
    QObject::connect(panel, &SweepPanel::fuseRequested, panel, [w, panel] { panel->setFuseNodes(selectedNodes(w)); });
    QObject::connect(panel, &SweepPanel::valueClicked, w, [w](qint64 value) {
        w->batchSpin()->setValue(static_cast<int>(std::clamp<qint64>(value, w->batchSpin()->minimum(),
                                                                     w->batchSpin()->maximum())));
    });
    return panel;
}

} // namespace costscope
