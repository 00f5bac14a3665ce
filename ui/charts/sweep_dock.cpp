// SPDX-License-Identifier: MIT
#include "charts/sweep_dock.h"
#include "canvas/graph_scene.h"
#include "charts/sweep_panel.h"
#include "open_graph_feed.h"
#include "panels/bindings_editor.h"
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QMainWindow>
#include <QSpinBox>
#include <algorithm>

namespace costscope {

namespace {
// The sweep starts from the analysis settings, all of their bindings included.
void syncToolbar(const AnalysisSettingsOwner* settings, SweepPanel* panel)
{
    const AnalysisSettings& s = settings->value();
    panel->setModel(QString::fromStdString(s.model));
    panel->setFocusDevice(QString::fromStdString(s.device));
    panel->setBase(s.bindings);
    panel->setRlxVersion(s.rlxVersion);
}
} // namespace

SweepPanel* installSweepDock(QMainWindow* w, OpenGraphFeed* feed, GraphScene* scene, const BindingsEditor* bindings)
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
    AnalysisSettingsOwner* settings = feed->settings();
    syncToolbar(settings, panel);

    // The window resets its Bindings editor for a new graph first (it connected earlier), then the sweep reads it.
    QObject::connect(feed, &OpenGraphFeed::graphChanged, panel, [feed, settings, panel] {
        panel->setGraph(feed->graph());
        syncToolbar(settings, panel);
    });
    // setBase ignores a change to the swept symbol alone: it is overridden at every sweep point.
    QObject::connect(settings, &AnalysisSettingsOwner::changed, panel,
                     [settings, panel] { syncToolbar(settings, panel); });
    QObject::connect(scene, &GraphScene::nodeSelected, panel,
                     [panel](std::optional<NodeId> id) { panel->setHighlightedNode(id); });
    QObject::connect(panel, &SweepPanel::fuseRequested, panel,
                     [scene, panel] { panel->setFuseNodes(scene->selectedNodeIds()); }); // a group: all it holds
    // A clicked sweep value becomes the binding of the swept symbol (a symbol of the graph, or batch): the plotted
    // sweep's symbol, or before the first result the one the panel names.
    QObject::connect(panel, &SweepPanel::valueClicked, settings, [settings, bindings, panel](qint64 value) {
        const std::string plotted = panel->data().symbol;
        const std::string symbol = plotted.empty() ? panel->symbolEdit()->text().trimmed().toStdString() : plotted;
        if (symbol == "batch" || bindings->spinFor(symbol))
            settings->setBinding(symbol, std::clamp<qint64>(value, 1, kMaxBinding));
    });
    return panel;
}

} // namespace costscope
