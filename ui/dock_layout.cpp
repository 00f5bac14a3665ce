// SPDX-License-Identifier: MIT
#include "dock_layout.h"
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QPointer>
#include <QScrollArea>
#include <algorithm>

namespace costscope {
namespace {

// The column's tabs in this order, Summary first (raised); any other dock after them.
const QStringList kInspectDocks = {QStringLiteral("summaryDock"), QStringLiteral("propertiesDock"),
                                   QStringLiteral("bindingsDock"), QStringLiteral("sweepDock")};
const QStringList kListDocksFirst = {QStringLiteral("nodesDock"), QStringLiteral("topNodesDock"),
                                     QStringLiteral("rooflineDock"), QStringLiteral("runDock")};

int columnWidth(int windowWidth)
{
    return std::clamp(static_cast<int>(windowWidth * kColumnShare), kMinColumn, kMaxColumn);
}

// Dock sizes only hold once the window has its real size: the column's width is set on the first show, and once
// more after the window's first resizes past it (a window manager that maximises right after mapping).
class ColumnSizer : public QObject {
public:
    ColumnSizer(QMainWindow* window, QDockWidget* column) : QObject(window), m_window(window), m_column(column)
    {
        window->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_window && (event->type() == QEvent::Show || event->type() == QEvent::Resize)
            && m_window->isVisible() && m_column) {
            m_window->resizeDocks({m_column.data()}, {columnWidth(m_window->width())}, Qt::Horizontal);
            if (event->type() == QEvent::Resize && ++m_resizes >= 2)
                deleteLater();
        }
        return false;
    }

private:
    QMainWindow* m_window;
    QPointer<QDockWidget> m_column;
    int m_resizes = 0;
};

// A panel wider than the column (the Run panel's forms, the sweep charts' controls) would widen the whole column,
// tabs included, since a tab stack is as wide as its widest member: such a panel scrolls sideways instead.
void fitToColumn(QDockWidget* dock, int column)
{
    QWidget* content = dock->widget();
    if (!content || content->minimumSizeHint().width() <= column || qobject_cast<QScrollArea*>(content))
        return;
    auto* scroll = new QScrollArea(dock);
    scroll->setObjectName(dock->objectName() + QStringLiteral("Scroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    dock->setWidget(scroll);
}

// Puts `docks` in the right area as one tab stack, the first raised; returns it.
QDockWidget* stack(QMainWindow* window, const QList<QDockWidget*>& docks)
{
    if (docks.isEmpty())
        return nullptr;
    QDockWidget* first = docks.front();
    first->setFloating(false);
    window->addDockWidget(Qt::RightDockWidgetArea, first);
    for (QDockWidget* d : docks.mid(1)) {
        d->setFloating(false);
        window->tabifyDockWidget(first, d);
    }
    first->raise();
    return first;
}

} // namespace

void applyDefaultDockLayout(QMainWindow* window)
{
    window->setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    QList<QDockWidget*> docks;
    for (const QString& name : kInspectDocks + kListDocksFirst)
        if (auto* d = window->findChild<QDockWidget*>(name, Qt::FindDirectChildrenOnly))
            docks << d;
    for (QDockWidget* d : window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        if (!docks.contains(d))
            docks << d;
    for (QDockWidget* d : docks)
        fitToColumn(d, kMinColumn);
    new ColumnSizer(window, stack(window, docks));
}

} // namespace costscope
