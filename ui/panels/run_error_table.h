// SPDX-License-Identifier: MIT
#pragma once
#include "panels/value_items.h"
#include "run_comparison.h"
#include <QWidget>

class QTableWidget;

namespace costscope {

// The error of both models for a run: the whole graph (one row per model: predicted, measured, error %, and the
// per-node MAPE and share within ±25 %) above one row per timed node (measured, each model's prediction and
// error %). Cells show formatted text; kValueRole holds the number (ns or %), which is also what sorting uses.
class RunErrorTable : public QWidget {
    Q_OBJECT
public:
    enum WholeColumn {
        Model, Profile, Predicted, WholeMeasured, WholeError, NodeMape, NodesWithin25, WholeColumnCount
    };
    enum WholeRow { RlxRow, CostscopeRow, CostscopeHostRow };
    enum NodeColumn { Id, Name, OpLabel, Measured, Rlx, RlxError, Costscope, CostscopeError, NodeColumnCount };
    static constexpr int kValueRole = kTableValueRole;

    explicit RunErrorTable(QWidget* parent = nullptr);
    // nullptr clears both tables.
    void showComparison(const RunComparison* run);
    QTableWidget* wholeTable() const { return m_whole; }
    QTableWidget* nodeTable() const { return m_nodes; }

private:
    QTableWidget* m_whole;
    QTableWidget* m_nodes;
};

} // namespace costscope
