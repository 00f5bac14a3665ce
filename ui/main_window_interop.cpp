// SPDX-License-Identifier: MIT
// Interop in the window: File → Compare With… (the current graph beside another one, ui/diff/diff_window.h) and
// File → Import Measured Trace… (Chrome/Perfetto, ONNX Runtime profile or costscope-cli run JSON as the Measured
// overlay).
#include "diff/diff_window.h"
#include "edit/graph_document.h"
#include "formats/graph_file.h"
#include "interop/trace_import.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QtConcurrent>
#include <algorithm>
#include <set>

namespace costscope {

void MainWindow::addCompareAction()
{
    QMenu* file = menuBar()->actions().constFirst()->menu();
    auto* compare = new QAction(tr("&Compare With…"), this);
    compare->setObjectName(QStringLiteral("actionCompare"));
    compare->setStatusTip(tr("Show another graph beside this one: added, removed and changed nodes and the cost deltas"));
    connect(compare, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Compare with"), QFileInfo(m_file).absolutePath(),
            tr("Graphs (*.json *.onnx *.costscope);;All files (*)"));
        if (!path.isEmpty())
            compareWith(path);
    });
    auto* import = new QAction(tr("&Import Measured Trace…"), this);
    import->setObjectName(QStringLiteral("actionImportTrace"));
    import->setStatusTip(tr("Per-node times from a Chrome/Perfetto trace, an ONNX Runtime profile or costscope-cli run "
                            "--per-node --json, shown as the Measured overlay"));
    connect(import, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import measured trace"), QFileInfo(m_file).absolutePath(),
                                                          tr("Traces (*.json);;All files (*)"));
        if (!path.isEmpty())
            importTrace(path);
    });
    // After Save As, before Export.
    const auto actions = file->actions();
    for (int i = 0; i < actions.size(); ++i)
        if (actions[i]->shortcut() == QKeySequence(QKeySequence::SaveAs)) {
            file->insertActions(actions.value(i + 1), {compare, import});
            return;
        }
    file->addActions({compare, import});
}

void MainWindow::importTrace(const QString& path)
{
    if (!m_graph) {
        m_reportError(tr("Nothing to import into"), tr("Open the graph the trace was measured on first."));
        return;
    }
    auto* watcher = new QFutureWatcher<Result<Trace>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path, graph = m_graph] {
        watcher->deleteLater();
        const Result<Trace> trace = watcher->result();
        if (!trace) {
            m_reportError(tr("Could not import %1").arg(QFileInfo(path).fileName()),
                          QString::fromStdString(trace.error().format(path.toStdString())));
            return;
        }
        if (graph != m_graph)
            return; // the graph changed while the trace loaded: its times are for another graph
        const TraceMatch match = matchTrace(*graph, *trace);
        const std::set<std::string> unmatched(match.unmatchedEvents.begin(), match.unmatchedEvents.end());
        const auto matchedEvents = std::count_if(trace->events.begin(), trace->events.end(),
                                                 [&](const TraceEvent& e) { return !unmatched.count(e.name); });
        m_lastTraceReport = tr("%1: %2 of %3 events matched %4 nodes; %5 event names matched no node; %6 nodes that do "
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
            m_lastTraceReport += tr(" (%1%2)").arg(names.join(QStringLiteral(", ")),
                                                   match.unmatchedEvents.size() > 8 ? QStringLiteral(", …") : QString());
        }
        if (match.matchedNodes == 0) {
            m_reportError(tr("No node matched"), m_lastTraceReport);
            return;
        }
        showMeasured(graph, match.measuredNs);
        m_overlayMode->setCurrentIndex(m_overlayMode->findData(static_cast<int>(OverlayMode::Measured)));
        statusBar()->showMessage(m_lastTraceReport, 15000);
        emit traceImported(m_lastTraceReport);
    });
    watcher->setFuture(QtConcurrent::run([p = path.toStdString()] { return loadTrace(p); }));
}

void MainWindow::compareWith(const QString& path)
{
    if (!m_graph) {
        m_reportError(tr("Nothing to compare"), tr("Open or create a graph first, then compare it with another."));
        return;
    }
    statusBar()->showMessage(tr("Loading %1 to compare …").arg(path));
    auto* watcher = new QFutureWatcher<Result<LoadedGraph>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path, current = m_graph] {
        watcher->deleteLater();
        Result<LoadedGraph> loaded = watcher->result();
        if (!loaded) {
            m_reportError(tr("Could not open %1").arg(QFileInfo(path).fileName()),
                          QString::fromStdString(loaded.error().format(path.toStdString())));
            return;
        }
        const AnalysisSettings& settings = m_settings->value();
        CostRequest request{settings.model, settings.device, settings.bindings, settings.rlxVersion};
        auto* window = new DiffWindow({current, m_doc->displayName()},
                                      {std::make_shared<const Graph>(std::move(loaded->graph)), QFileInfo(path).fileName()},
                                      m_costProvider, request, costDeviceNames(), this);
        window->show();
        statusBar()->clearMessage();
        emit diffOpened(window);
    });
    watcher->setFuture(QtConcurrent::run([p = path.toStdString()] { return loadGraphFile(p); }));
}

} // namespace costscope
