// SPDX-License-Identifier: MIT
#pragma once
#include "run_delta.h"
#include <QWidget>

class QLabel;
class QTableWidget;

namespace costscope {

// The last two runs of the open graph side by side (compareRuns): the whole graph's medians and one row per node
// both timed, with the change in percent. Cells hold their numbers in kTableValueRole and sort by them.
class RunDeltaTable : public QWidget {
    Q_OBJECT
public:
    enum Column { Id, Name, OpLabel, Before, After, Change, ColumnCount };

    explicit RunDeltaTable(QWidget* parent = nullptr);
    // Either null: nothing to compare (says how to get there).
    void showRuns(const RunComparison* before, const RunComparison* after);
    QLabel* summary() const { return m_summary; }
    QTableWidget* table() const { return m_table; }

private:
    QLabel* m_summary;
    QTableWidget* m_table;
};

} // namespace costscope
