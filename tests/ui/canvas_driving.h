// SPDX-License-Identifier: MIT
#pragma once
// Driving the window's canvas as a user does, shared by the canvas navigation tests.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "main_window.h"
#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

namespace costscope::test {

inline bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    w.openFile(path);
    return ready.wait(60000);
}

// Shows the window at 1280x800 (the size docs/first-view-*.png are taken at) and opens `path` in it.
inline bool showAndOpen(MainWindow& w, const QString& path)
{
    w.resize(1280, 800);
    w.show();
    return QTest::qWaitForWindowExposed(&w) && openAndWait(w, path);
}

inline int firstOp(const Graph& g, OpKind kind)
{
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].op.kind == kind)
            return static_cast<int>(i);
    return -1;
}

// Right-clicks the box that shows `node`, triggers the context menu's entry with this text and waits for the layout
// it causes. False when the entry is not in the menu or no layout follows.
inline bool triggerContextEntry(MainWindow& w, std::size_t node, const QString& text)
{
    NodeItem* box = w.scene()->itemForNode(node);
    if (!box)
        return false;
    w.canvas()->centerOn(box);
    bool found = false;
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu)
            return;
        for (QAction* a : menu->actions())
            if (a->text() == text && !found) {
                found = true;
                a->trigger();
            }
        menu->close();
    });
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    const QPoint at = w.canvas()->mapFromScene(box->pos());
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, w.canvas()->viewport()->mapToGlobal(at));
    QApplication::sendEvent(w.canvas()->viewport(), &event);
    return found && ready.wait(30000);
}

} // namespace costscope::test
