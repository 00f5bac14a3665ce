// SPDX-License-Identifier: MIT
#pragma once
#include <QDialog>
#include <QList>
#include <QPair>

class QTableWidget;
class QMainWindow;
class QTabWidget;
class QTextBrowser;

namespace costscope {

// Every shortcut the window answers: its actions' key sequences (read from the actions themselves, so the list
// cannot drift from what the keys do) and the canvas's own keys and mouse gestures, as (keys, what it does).
QList<QPair<QString, QString>> windowShortcuts(const QWidget* window);

// Help's window: a short guide (open, read the colours, the two models and which to trust, find, run, compare) and
// the shortcut list.
class HelpDialog : public QDialog {
    Q_OBJECT
public:
    enum Page { Guide, Shortcuts };
    HelpDialog(QWidget* window, Page page);
    QTextBrowser* guide() const { return m_guide; }
    QTableWidget* shortcuts() const { return m_shortcuts; }
    QTabWidget* tabs() const { return m_tabs; }

private:
    QTabWidget* m_tabs;
    QTextBrowser* m_guide;
    QTableWidget* m_shortcuts;
};

// Help → Quick Guide (F1) and Keyboard Shortcuts, above About; each opens the (non-modal) HelpDialog on its page.
void addHelpActions(QMainWindow* window);

} // namespace costscope
