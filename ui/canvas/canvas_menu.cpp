// SPDX-License-Identifier: MIT
#include "canvas/canvas_menu.h"
#include "canvas/canvas_view.h"
#include "document_controller.h"
#include "edit/graph_templates.h"
#include "graph_presenter.h"
#include "recent_files.h"
#include <QAction>
#include <QMainWindow>
#include <QMenu>

namespace costscope {
namespace {
void addWindowActions(QMainWindow* window, QMenu* menu, const QStringList& names)
{
    for (const QString& name : names) {
        if (name.isEmpty()) {
            menu->addSeparator();
        } else if (auto* action = window->findChild<QAction*>(name)) {
            menu->addAction(action);
        }
    }
}
} // namespace

void fillCanvasMenu(QMainWindow* window, DocumentController* documents, bool graphOpen, QMenu* menu)
{
    if (graphOpen) {
        addWindowActions(window, menu,
                         {QStringLiteral("actionFit"), QStringLiteral("actionJumpCostliest"), QString(),
                          QStringLiteral("actionCollapseAll"), QStringLiteral("actionExpandAll"), QString(),
                          QStringLiteral("actionMinimap"), QStringLiteral("actionLeftToRight"),
                          QStringLiteral("actionShowParams"), QString(), QStringLiteral("actionPaste"),
                          QStringLiteral("actionExport")});
        if (auto* showAll = window->findChild<QAction*>(QStringLiteral("actionShowAllNodes"));
            showAll && showAll->isEnabled())
            menu->insertAction(menu->actions().value(0), showAll); // the way back from a neighbourhood view comes first
        return;
    }
    addWindowActions(window, menu, {QStringLiteral("actionOpen")});
    QMenu* recent = menu->addMenu(QObject::tr("Open Recent"));
    const QStringList files = recentFiles();
    for (const QString& path : files)
        recent->addAction(recentFileLabel(path, files), documents, [documents, path] { documents->openFile(path); });
    recent->setEnabled(!files.isEmpty());
    QMenu* templates = menu->addMenu(QObject::tr("New from Template"));
    for (const edit::TemplateInfo& t : edit::graphTemplates())
        templates->addAction(QString::fromStdString(t.title), documents,
                             [documents, id = t.id] { documents->newGraph(id); });
}

void installCanvasMenu(QMainWindow* window, GraphPresenter* presenter, DocumentController* documents)
{
    QObject::connect(presenter->views().canvas, &CanvasView::backgroundContextMenu, window,
                     [window, presenter, documents](QMenu* menu, QPointF) {
                         fillCanvasMenu(window, documents, presenter->graph() != nullptr, menu);
                     });
}

} // namespace costscope
