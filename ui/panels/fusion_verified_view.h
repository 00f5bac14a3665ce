// SPDX-License-Identifier: MIT
#pragma once

#include "fusion_verified.h"
#include "jobs/job_tracker.h"
#include "panels/value_items.h"
#include "usecases/run_and_compare.h"

#include <QWidget>

#include <functional>
#include <memory>

class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace costscope {

class GraphScene;
class OpenGraphFeed;

// The Run panel's "Fusion verified" tab: "Verify fusion" runs the open graph unfused and fused on the Run panel's
// device (verifyFusionOf, off the GUI thread), then shows per fused kernel its nodes, the measured unfused and fused
// times and gain, and the gain RLX's IO gate and the Costscope what-if predicted (a table, and a chart of predicted
// against measured gain), and outlines the kernels on the canvas. A backend that does not fuse says so.
class FusionVerifiedView : public QWidget {
    Q_OBJECT
public:
    enum Column {
        Kernel,
        Nodes,
        Unfused,
        Fused,
        MeasuredGain,
        RlxGain,
        RlxWithin,
        CostscopeGain,
        CostscopeWithin,
        ColumnCount
    };
    static constexpr int kValueRole = kTableValueRole;

    // `request`: what the Run panel would run now (device, runs, the open graph and its bindings), or why nothing.
    // `feed` says when the graph changes; `scene` outlines the verified kernels on the canvas.
    FusionVerifiedView(OpenGraphFeed* feed, GraphScene* scene, std::function<Result<RunRequest>()> request,
                       QWidget* parent = nullptr);
    ~FusionVerifiedView() override;

    // Shows a verification of `graph` (the window's graph: the canvas outlines its kernels); nullptr clears.
    void showVerification(std::shared_ptr<const FusionVerification> verification, std::shared_ptr<const Graph> graph);
    std::shared_ptr<const FusionVerification> verification() const { return m_verification; }
    QPushButton* verifyButton() const { return m_verify; }
    QLabel* summary() const { return m_summary; }
    QTableWidget* table() const { return m_table; }
    QCustomPlot* chart() const { return m_chart; }
    bool busy() const { return m_job.busy(); }

signals:
    void busyChanged(bool busy);
    void finished(bool ok);

private:
    void start();
    void setBusy(bool busy);
    void fillTable(const Graph& graph);
    void drawChart();

    GraphScene* m_scene;
    std::function<Result<RunRequest>()> m_request;
    QPushButton* m_verify;
    QLabel* m_summary;
    QTableWidget* m_table;
    QCustomPlot* m_chart;
    std::shared_ptr<const FusionVerification> m_verification;
    JobTracker m_job;
};

} // namespace costscope
