// SPDX-License-Identifier: MIT
#pragma once
#include "layout/scope_icicle.h"
#include <QWidget>
#include <memory>

class QMainWindow;

namespace costscope {

class OpenGraphFeed;
struct GraphCost;

// Cost by scope as an icicle (speedscope's left-heavy view): the whole graph on top, each scope level a row below,
// every bar as wide as its share of the predicted time. A click on a node's bar selects the node; on a scope's
// bar, the costliest node inside it.
class IcicleChart : public QWidget {
    Q_OBJECT
public:
    explicit IcicleChart(QWidget* parent = nullptr);
    // The graph's costs (null clears).
    void setCost(std::shared_ptr<const Graph> graph, std::shared_ptr<const GraphCost> cost);
    const std::vector<IcicleCell>& cells() const { return m_cells; }
    // Where a cell is drawn, in widget coordinates; the cell under a point (-1: none).
    QRectF cellRect(std::size_t cell) const;
    int cellAt(QPointF pos) const;
    // The node a click on the cell selects.
    NodeId nodeOf(std::size_t cell) const;

    static constexpr int kRowHeight = 22;

signals:
    void nodeSelected(costscope::NodeId id);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;
    QSize sizeHint() const override;

private:
    std::shared_ptr<const Graph> m_graph;
    GroupTree m_tree;
    std::vector<double> m_ns;
    std::vector<IcicleCell> m_cells;
    int m_rows = 0;
};

// Docks the chart as a tab beside the Top nodes of `window` and binds it to the open graph's costs; a clicked bar
// selects its node.
IcicleChart* installIcicleDock(QMainWindow* window, OpenGraphFeed* feed);

} // namespace costscope
