// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/cost_model.h"
#include "ir/graph.h"
#include <QTextBrowser>

namespace costscope {

// The `costscope-cli info` summary of the open graph, plus the total cost once the overlay has one.
class SummaryPanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);
    void showSummary(const Graph* graph, const GraphCost* cost);
};

} // namespace costscope
