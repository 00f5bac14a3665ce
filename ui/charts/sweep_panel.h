// SPDX-License-Identifier: MIT
#pragma once
#include "charts/sweep_data.h"
#include "jobs/job_tracker.h"
#include <QWidget>
#include <memory>

class QCustomPlot;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace costscope {

// The "Sweeps" panel: four QCustomPlot charts over one sweep (see sweep_charts.h) and the controls that set it.
// Every change schedules a recomputation on a worker thread; a newer one supersedes (and cancels) an older one,
// whose result is then dropped.
class SweepPanel : public QWidget {
    Q_OBJECT
public:
    // Tabs: one chart at a time, for a dock beside the canvas; Grid: all four, for a screenshot or a wide window.
    enum class Arrangement { Tabs, Grid };
    explicit SweepPanel(QWidget* parent = nullptr, Arrangement arrangement = Arrangement::Grid);
    ~SweepPanel() override;

    void setGraph(std::shared_ptr<const Graph> graph);
    void setModel(const QString& model);
    void setFocusDevice(const QString& device); // the toolbar's device: charts 3 and 4, shading in chart 2
    void setBase(const Bindings& base);         // the other symbols' values
    void setFuseNodes(std::vector<NodeId> nodes);
    void setRlxVersion(RlxVersion version); // chart 1's pick rule: Uncalibrated crossovers are drawn, not picked
    // Emphasises the node's series (chart 4), asking for one when the node is not among the top nodes; nullopt:
    // none.
    void setHighlightedNode(std::optional<NodeId> node);
    std::optional<NodeId> highlightedNode() const { return m_highlight; }

    QLineEdit* symbolEdit() const { return m_symbol; }
    QLineEdit* valuesEdit() const { return m_values; }
    QLineEdit* devicesEdit() const { return m_devices; }
    QSpinBox* nFftSpin() const { return m_nFft; }
    QSpinBox* kSpin() const { return m_k; }
    QLineEdit* learnedEdit() const { return m_learned; } // learned gates for chart 3: "ACTIVE/TOTAL" or "off"
    QCustomPlot* costChart() const { return m_costs; }
    QCustomPlot* gateChart() const { return m_gates; }
    QCustomPlot* strategyChart() const { return m_strategies; }
    QCustomPlot* shareChart() const { return m_shares; }
    const SweepData& data() const { return m_data; }
    QString statusText() const;

    // Starts a recomputation now (the controls call it after a short delay); returns its job id (JobTracker), 0
    // when the inputs are bad.
    quint64 recompute();
    // Shows `data` when `job` is the latest request; returns false (and shows nothing) for a stale one.
    bool applyResult(quint64 job, SweepData data);

signals:
    void valueClicked(qint64 value);
    void fuseRequested(); // the "Fuse selection" button: the owner answers with setFuseNodes
    void resultsApplied();

private:
    void schedule();
    std::optional<SweepInputs> inputs();
    void replot();
    bool showData(SweepData data);

    SweepInputs m_in;
    SweepData m_data;
    std::optional<NodeId> m_highlight;
    JobTracker m_job;
    QTimer* m_delay;
    QLineEdit* m_symbol;
    QLineEdit* m_values;
    QLineEdit* m_devices;
    QSpinBox* m_nFft;
    QSpinBox* m_k;
    QLineEdit* m_learned;
    QLabel* m_status;
    QCustomPlot* m_costs;
    QCustomPlot* m_gates;
    QCustomPlot* m_strategies;
    QCustomPlot* m_shares;
};

} // namespace costscope
