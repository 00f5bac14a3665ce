// SPDX-License-Identifier: MIT
#include "interop_controller.h"
#include "analysis_controls.h"
#include "analysis_settings_owner.h"
#include "cost_controller.h"
#include "diff/diff_window.h"
#include "edit/graph_document.h"
#include "formats/graph_file.h"
#include "graph_presenter.h"
#include "interop/trace_import.h"
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <algorithm>
#include <set>

namespace costscope {

InteropController::InteropController(DocumentController* documents, GraphPresenter* presenter, CostController* costs,
                                     AnalysisControls* controls, ErrorReporter reportError, QMainWindow* window)
    : QObject(window), m_documents(documents), m_presenter(presenter), m_costs(costs), m_controls(controls),
      m_reportError(std::move(reportError)), m_window(window)
{
}

void InteropController::addFileActions(QMenu* file)
{
    auto* compare = file->addAction(tr("&Compare With…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Compare with"),
                                                          QFileInfo(m_documents->currentFile()).absolutePath(),
                                                          tr("Graphs (*.json *.onnx *.costscope);;All files (*)"));
        if (!path.isEmpty())
            compareWith(path);
    });
    compare->setObjectName(QStringLiteral("actionCompare"));
    compare->setStatusTip(
        tr("Show another graph beside this one: added, removed and changed nodes and the cost deltas"));
    auto* import = file->addAction(tr("&Import Measured Trace…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Import measured trace"),
                                                          QFileInfo(m_documents->currentFile()).absolutePath(),
                                                          tr("Traces (*.json);;All files (*)"));
        if (!path.isEmpty())
            importTrace(path);
    });
    import->setObjectName(QStringLiteral("actionImportTrace"));
    import->setStatusTip(tr("Per-node times from a Chrome/Perfetto trace, an ONNX Runtime profile or costscope-cli run "
                            "--per-node --json, shown as the Measured overlay"));
}

void InteropController::importTrace(const QString& path)
{
    const auto graph = m_presenter->graph();
    if (!graph) {
        m_reportError(tr("Nothing to import into"), tr("Open the graph the trace was measured on first."));
        return;
    }
    m_traceJob.start(
        [p = path.toStdString()] { return loadTrace(p); },
        [this, path, graph](const Result<Trace>& trace) {
            if (!trace) {
                m_reportError(tr("Could not import %1").arg(QFileInfo(path).fileName()),
                              QString::fromStdString(trace.error().format(path.toStdString())));
                return;
            }
            if (graph != m_presenter->graph())
                return; // the graph changed while the trace loaded: its times are for another graph
            const TraceMatch match = matchTrace(*graph, *trace);
            const std::set<std::string> unmatched(match.unmatchedEvents.begin(), match.unmatchedEvents.end());
            const auto matchedEvents = std::count_if(trace->events.begin(), trace->events.end(),
                                                     [&](const TraceEvent& e) { return !unmatched.count(e.name); });
            QString report =
                tr("%1: %2 of %3 events matched %4 nodes; %5 event names matched no node; %6 nodes that do "
                   "work have no event")
                    .arg(QFileInfo(path).fileName())
                    .arg(matchedEvents)
                    .arg(trace->events.size())
                    .arg(match.matchedNodes)
                    .arg(match.unmatchedEvents.size())
                    .arg(match.unmatchedNodes.size());
            if (!match.unmatchedEvents.empty()) {
                QStringList names;
                for (std::size_t i = 0; i < match.unmatchedEvents.size() && i < 8; ++i)
                    names << QString::fromStdString(match.unmatchedEvents[i]);
                report += tr(" (%1%2)").arg(names.join(QStringLiteral(", ")),
                                            match.unmatchedEvents.size() > 8 ? QStringLiteral(", …") : QString());
            }
            if (match.matchedNodes == 0) {
                m_reportError(tr("No node matched"), report);
                return;
            }
            m_presenter->showMeasured(graph, match.measuredNs);
            m_controls->showOverlay(OverlayMode::Measured);
            m_window->statusBar()->showMessage(report, 15000);
            emit traceImported(report);
        });
}

void InteropController::compareWith(const QString& path)
{
    const auto current = m_presenter->graph();
    if (!current) {
        m_reportError(tr("Nothing to compare"), tr("Open or create a graph first, then compare it with another."));
        return;
    }
    m_window->statusBar()->showMessage(tr("Loading %1 to compare …").arg(path));
    m_compareJob.start([p = path.toStdString()] { return loadGraphFile(p); },
                       [this, path, current](Result<LoadedGraph> loaded) {
                           if (!loaded) {
                               m_reportError(tr("Could not open %1").arg(QFileInfo(path).fileName()),
                                             QString::fromStdString(loaded.error().format(path.toStdString())));
                               return;
                           }
                           const AnalysisSettings& settings = m_presenter->feed()->settings()->value();
                           CostRequest request{settings.model, settings.device, settings.bindings, settings.rlxVersion};
                           auto* window = new DiffWindow(
                               {current, m_documents->document()->displayName()},
                               {std::make_shared<const Graph>(std::move(loaded->graph)), QFileInfo(path).fileName()},
                               m_costs->costProvider(), request, costDeviceNames(), m_window);
                           window->show();
                           m_window->statusBar()->clearMessage();
                           emit diffOpened(window);
                       });
}

} // namespace costscope
