// SPDX-License-Identifier: MIT
#pragma once
// Prices the open graph whenever it or the analysis settings change: the current device first (it colours the
// canvas sooner), then every device (the cost summary bar, the per-device table, an instant device switch); the
// graph re-typed to the precision what-if; and Analysis → Jump to Next Costliest Node.
#include "jobs/cost_job.h"
#include "jobs/job_tracker.h"
#include <QObject>
#include <memory>
#include <vector>

class QAction;
class QDockWidget;
class QMainWindow;
class QToolBar;

namespace costscope {

class AnalysisControls;
class AnalysisSettingsOwner;
class CostSummaryBar;
class GraphPresenter;
struct DeviceCosts;

class CostController : public QObject {
    Q_OBJECT
public:
    static constexpr std::size_t kCostliestCount = 10;

    // Adds the cost summary bar (a toolbar at the bottom of `window`) and the jump action to the Analysis toolbar.
    CostController(AnalysisSettingsOwner* settings, GraphPresenter* presenter, AnalysisControls* controls,
                   QMainWindow* window);

    // Without a provider the canvas shows no cost overlay.
    void setCostProvider(CostProvider provider);
    const CostProvider& costProvider() const { return m_costProvider; }
    // Reads the profiles again (one was saved) and lists them in the device selector, keeping the choice.
    void reloadProfiles();
    CostSummaryBar* costSummaryBar() const { return m_costBar; }
    QAction* jumpToCostliestAction() const { return m_jumpCostliest; }
    // The Analysis menu (before Help): the jump, and the toggles of the Bindings dock and the cost summary bar.
    void addAnalysisMenu(QDockWidget* bindingsDock);

signals:
    void deviceCostsUpdated();

private:
    void resetForGraph();
    void requestCosts();
    void requestDeviceCosts(std::shared_ptr<const Graph> graph, const std::string& model, const Bindings& bindings,
                            const std::string& precision);
    void applyDeviceCosts(std::shared_ptr<const DeviceCosts> costs);
    // `graph` re-typed to the settings' precision (itself at fp32, or where the what-if cannot apply, said so).
    std::shared_ptr<const Graph> atPrecision(std::shared_ptr<const Graph> graph);
    void showDeviceCosts();
    void jumpToNextCostliest();

    AnalysisSettingsOwner* m_settings;
    GraphPresenter* m_presenter;
    AnalysisControls* m_controls;
    QMainWindow* m_window;
    CostSummaryBar* m_costBar;
    QToolBar* m_costBarToolBar;
    QAction* m_jumpCostliest;
    CostProvider m_costProvider;
    // The current device alone, and every device: a newer graph, model, binding or device drops what is under way.
    JobTracker m_costJob;
    JobTracker m_deviceCostsJob;
    std::vector<std::size_t> m_costliest;
    const GraphCost* m_costliestFor = nullptr;
    std::size_t m_costliestCursor = 0;
};

} // namespace costscope
