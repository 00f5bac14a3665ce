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

// The docks of the upper stack, first raised; every other dock goes to the lower stack, Nodes first.
const QStringList kInspectDocks = {QStringLiteral("summaryDock"), QStringLiteral("propertiesDock"),
                                   QStringLiteral("bindingsDock"), QStringLiteral("sweepDock")};
const QStringList kListDocksFirst = {QStringLiteral("nodesDock"), QStringLiteral("topNodesDock"),
                                     QStringLiteral("rooflineDock"), QStringLiteral("runDock")};

int columnWidth(int windowWidth)
{
    return std::clamp(static_cast<int>(windowWidth * kColumnShare), kMinColumn, kMaxColumn);
}

// Dock sizes only hold once the window has its real size: they are set on the first show, and once more after the
// window's first resize past it (a window manager that maximises right after mapping).
class ColumnSizer : public QObject {
public:
    ColumnSizer(QMainWindow* window, QDockWidget* upper, QDockWidget* lower)
        : QObject(window), m_window(window), m_upper(upper), m_lower(lower)
    {
        window->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_window && (event->type() == QEvent::Show || event->type() == QEvent::Resize)
            && m_window->isVisible()) {
            apply();
            if (event->type() == QEvent::Resize && ++m_resizes >= 2)
                deleteLater();
        }
        return false;
    }

private:
    void apply()
    {
        QList<QDockWidget*> docks;
        for (QDockWidget* d : {m_upper.data(), m_lower.data()})
            if (d)
                docks << d;
        if (docks.isEmpty())
            return;
        m_window->resizeDocks({docks.front()}, {columnWidth(m_window->width())}, Qt::Horizontal);
        if (docks.size() == 2) {
            const int h = m_window->height();
            m_window->resizeDocks(docks, {h * 55 / 100, h * 45 / 100}, Qt::Vertical);
        }
    }

    QMainWindow* m_window;
    QPointer<QDockWidget> m_upper;
    QPointer<QDockWidget> m_lower;
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

// Puts `docks` in the right area as one tab stack under `below` (or at the top when null); returns the first.
QDockWidget* stack(QMainWindow* window, const QList<QDockWidget*>& docks, QDockWidget* below)
{
    if (docks.isEmpty())
        return nullptr;
    QDockWidget* first = docks.front();
    first->setFloating(false);
    window->addDockWidget(Qt::RightDockWidgetArea, first);
    if (below)
        window->splitDockWidget(below, first, Qt::Vertical);
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
    QList<QDockWidget*> inspect;
    QList<QDockWidget*> list;
    for (const QString& name : kInspectDocks)
        if (auto* d = window->findChild<QDockWidget*>(name, Qt::FindDirectChildrenOnly))
            inspect << d;
    for (const QString& name : kListDocksFirst)
        if (auto* d = window->findChild<QDockWidget*>(name, Qt::FindDirectChildrenOnly))
            list << d;
    for (QDockWidget* d : window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        if (!inspect.contains(d) && !list.contains(d))
            list << d;
    for (QDockWidget* d : inspect + list)
        fitToColumn(d, kMinColumn);
    QDockWidget* upper = stack(window, inspect, nullptr);
    QDockWidget* lower = stack(window, list, upper);
    new ColumnSizer(window, upper, lower);
}

} // namespace costscope
