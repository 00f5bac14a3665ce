// SPDX-License-Identifier: MIT
#pragma once
#include <QFrame>

class QLabel;
class QMainWindow;
class QPushButton;
class QSpinBox;

namespace costscope {

class CanvasView;
class GraphScene;

// The strip in the canvas's top-left corner while a neighbourhood view is shown: whose neighbourhood it is, how
// many nodes it shows, the hop count and Show all. Hidden otherwise.
class NeighbourhoodBar : public QFrame {
    Q_OBJECT
public:
    NeighbourhoodBar(GraphScene* scene, CanvasView* canvas);
    QSpinBox* hops() const { return m_hops; }
    QLabel* label() const { return m_label; }
    QPushButton* showAllButton() const { return m_showAll; }

private:
    void refresh();
    GraphScene* m_scene;
    QLabel* m_label;
    QSpinBox* m_hops;
    QPushButton* m_showAll;
};

// Gives the window's canvas a neighbourhood bar and a "Show All Nodes" action (actionShowAllNodes, in the canvas
// menu while a neighbourhood is shown), and frames each neighbourhood once laid out.
void installNeighbourhoodView(QMainWindow* window, GraphScene* scene, CanvasView* canvas);

} // namespace costscope
