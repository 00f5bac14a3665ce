// SPDX-License-Identifier: MIT
#include "charts/sweep_dock.h"
#include "canvas/graph_scene.h"
#include "charts/sweep_panel.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>

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

// The sweep starts from the window's analysis settings, all of its bindings included.
void syncToolbar(MainWindow* w, SweepPanel* panel)
{
    const AnalysisSettings& s = w->analysisSettings()->value();
    panel->setModel(QString::fromStdString(s.model));
    panel->setFocusDevice(QString::fromStdString(s.device));
    panel->setBase(s.bindings);
    panel->setRlxVersion(s.rlxVersion);
}

// A clicked sweep value becomes the window's binding of the swept symbol (a symbol of the graph, or batch).
void setSweptBinding(MainWindow* w, const std::string& symbol, qint64 value)
{
    if (symbol == "batch" || w->bindingsEditor()->spinFor(symbol))
        w->analysisSettings()->setBinding(symbol, std::clamp<qint64>(value, 1, kMaxBinding));
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

    // The window resets its Bindings editor for a new graph first (it connected earlier), then the sweep reads it.
    QObject::connect(w, &MainWindow::graphChanged, panel, [w, panel] {
        panel->setGraph(w->graph());
        syncToolbar(w, panel);
    });
    // setBase ignores a change to the swept symbol alone: it is overridden at every sweep point.
    QObject::connect(w->analysisSettings(), &AnalysisSettingsOwner::changed, panel,
                     [w, panel] { syncToolbar(w, panel); });
    QObject::connect(w->scene(), &GraphScene::nodeSelected, panel, [w, panel](int index) {
        const bool valid = index >= 0 && w->graph() && static_cast<std::size_t>(index) < w->graph()->nodes.size();
        panel->setHighlightedNode(valid ? static_cast<long long>(w->graph()->nodes[static_cast<std::size_t>(index)].id)
                                        : -1);
    });
    QObject::connect(panel, &SweepPanel::fuseRequested, panel, [w, panel] { panel->setFuseNodes(selectedNodes(w)); });
    QObject::connect(panel, &SweepPanel::valueClicked, w,
                     [w, panel](qint64 value) {
                         // The plotted sweep's symbol; before the first result, the one the panel names.
                         const std::string plotted = panel->data().symbol;
                         setSweptBinding(w, plotted.empty() ? panel->symbolEdit()->text().trimmed().toStdString() : plotted,
                                         value);
                     });
    return panel;
}

} // namespace costscope
