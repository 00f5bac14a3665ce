// SPDX-License-Identifier: MIT
#pragma once
#include "edit/graph_templates.h"
#include <QFrame>
#include <QStringList>

class QPushButton;
class QVBoxLayout;

namespace costscope {

// What an empty window shows in the middle of the canvas: Open, the recent files, that a file can be dropped here,
// and the templates to start a graph from. It sits over the canvas's viewport, centred, and takes no drops itself
// (they reach the canvas under it).
class EmptyCanvasPrompt : public QFrame {
    Q_OBJECT
public:
    explicit EmptyCanvasPrompt(QWidget* viewport);
    // Newest first; the first kShownRecent are offered.
    void setRecentFiles(const QStringList& paths);
    QPushButton* openButton() const { return m_open; }
    QList<QPushButton*> recentButtons() const { return m_recentButtons; }
    QList<QPushButton*> templateButtons() const { return m_templateButtons; }

    static constexpr int kShownRecent = 5;

signals:
    void openRequested();
    void recentChosen(const QString& path);
    void templateChosen(costscope::edit::GraphTemplate t);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void recentre();

    QPushButton* m_open;
    QVBoxLayout* m_recent;
    QList<QPushButton*> m_recentButtons;
    QList<QPushButton*> m_templateButtons;
};

} // namespace costscope
