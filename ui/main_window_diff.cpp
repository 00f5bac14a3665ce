// SPDX-License-Identifier: MIT
// File → Compare With…: the current graph beside another one (ui/diff/diff_window.h).
#include "diff/diff_window.h"
#include "edit/graph_document.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QtConcurrent>

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
    // After Save As, before Export.
    const auto actions = file->actions();
    for (int i = 0; i < actions.size(); ++i)
        if (actions[i]->shortcut() == QKeySequence(QKeySequence::SaveAs)) {
            file->insertAction(actions.value(i + 1), compare);
            return;
        }
    file->addAction(compare);
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
        CostRequest request{m_model->currentText().toStdString(), m_device->currentText().toStdString(),
                            m_bindings->bindings()};
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
