// SPDX-License-Identifier: MIT
#include "canvas/neighbourhood_bar.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QSpinBox>
#include <algorithm>
#include <memory>

namespace costscope {

NeighbourhoodBar::NeighbourhoodBar(GraphScene* scene, CanvasView* canvas)
    : QFrame(canvas), m_scene(scene), m_label(new QLabel(this)), m_hops(new QSpinBox(this)),
      m_showAll(new QPushButton(tr("Show all"), this))
{
    setObjectName(QStringLiteral("neighbourhoodBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_hops->setObjectName(QStringLiteral("neighbourhoodHops"));
    m_hops->setRange(0, 50);
    m_hops->setValue(scene->neighbourhoodHops());
    m_hops->setSuffix(tr(" hops"));
    m_hops->setToolTip(tr("How many edges away from the centre node a node may be to be shown"));
    m_showAll->setObjectName(QStringLiteral("neighbourhoodShowAll"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    row->addWidget(m_label);
    row->addWidget(m_hops);
    row->addWidget(m_showAll);
    connect(m_hops, &QSpinBox::valueChanged, scene, &GraphScene::setNeighbourhoodHops);
    connect(m_showAll, &QPushButton::clicked, scene, &GraphScene::showAll);
    connect(scene, &GraphScene::neighbourhoodChanged, this, &NeighbourhoodBar::refresh);
    refresh();
}

void NeighbourhoodBar::refresh()
{
    const int centre = m_scene->neighbourhoodCentre();
    setVisible(centre >= 0);
    if (centre < 0 || !m_scene->graph())
        return;
    const Node& n = m_scene->graph()->nodes[static_cast<std::size_t>(centre)];
    const QString name = QString::fromStdString(n.displayName().empty() ? n.op.label() : n.displayName());
    const auto& units = m_scene->viewGraph().unitOfNode;
    const auto shown = std::count_if(units.begin(), units.end(), [](int unit) { return unit >= 0; });
    m_label->setText(tr("Neighbourhood of %1: %2 of %3 nodes").arg(name).arg(shown).arg(units.size()));
    const QSignalBlocker block(m_hops);
    m_hops->setValue(m_scene->neighbourhoodHops());
    adjustSize();
    move(parentWidget()->contentsRect().topLeft() + QPoint(8, 8));
    raise();
}

void installNeighbourhoodView(QMainWindow* window, GraphScene* scene, CanvasView* canvas)
{
    new NeighbourhoodBar(scene, canvas);
    auto* showAll = new QAction(QObject::tr("Show All Nodes"), window);
    showAll->setObjectName(QStringLiteral("actionShowAllNodes"));
    showAll->setToolTip(QObject::tr("Leave the neighbourhood view and show the whole graph"));
    showAll->setEnabled(false);
    window->addAction(showAll);
    QObject::connect(showAll, &QAction::triggered, scene, &GraphScene::showAll);
    // Framed once laid out: a neighbourhood is shown whole; leaving it, the view goes back to where its centre is.
    struct Pending {
        bool frame = false;
        int revealNode = -1;
        const Graph* graph = nullptr; // the graph revealNode is a position of
    };
    auto pending = std::make_shared<Pending>();
    QObject::connect(scene, &GraphScene::neighbourhoodChanged, window, [scene, showAll, pending] {
        const int centre = scene->neighbourhoodCentre();
        showAll->setEnabled(centre >= 0);
        pending->frame = centre >= 0;
        if (centre >= 0) {
            pending->revealNode = centre;
            pending->graph = scene->graph();
        }
    });
    QObject::connect(scene, &GraphScene::layoutFinished, window, [scene, canvas, pending] {
        if (pending->frame) {
            pending->frame = false;
            canvas->fitAll();
        } else if (pending->revealNode >= 0 && !scene->showsNeighbourhood() && scene->graph() == pending->graph) {
            if (const NodeItem* item = scene->itemForNode(static_cast<std::size_t>(pending->revealNode)))
                canvas->reveal(item);
            pending->revealNode = -1;
        }
    });
}

} // namespace costscope
