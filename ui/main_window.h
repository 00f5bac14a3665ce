// SPDX-License-Identifier: MIT
#pragma once
// The main window assembles the collaborators that do the work (Hotspot's MainWindow): the presenter of the open
// graph, the analysis controls, the cost, document, edit and interop controllers, and the panels and charts that
// follow the open graph's feed. It relays none of their traffic; the getters below hand them to tests and tools.
#include "analysis_controls.h"
#include "cost_controller.h"
#include "document_controller.h"
#include "edit/graph_templates.h"
#include "edit_controller.h"
#include "graph_presenter.h"
#include "interop_controller.h"
#include "ir/precision.h"
#include <QMainWindow>

namespace costscope {

class Autosaver;
class BindingsEditor;
class CostSummaryBar;
class DeviceCostTable;
class GraphDocument;
class NodeTablePanel;
class PropertyPanel;
class SummaryPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Shows an error to the user; the default opens a (non-blocking) QMessageBox.
    using ErrorReporter = costscope::ErrorReporter;
    using SaveChangesPrompt = DocumentController::SaveChangesPrompt;
    using RecoveryPrompt = DocumentController::RecoveryPrompt;
    static constexpr std::size_t kCostliestCount = CostController::kCostliestCount;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    GraphPresenter* presenter() const { return m_presenter; }
    AnalysisControls* controls() const { return m_controls; }
    CostController* costs() const { return m_costs; }
    DocumentController* documents() const { return m_documents; }
    EditController* edits() const { return m_edits; }
    InteropController* interop() const { return m_interop; }

    void setErrorReporter(ErrorReporter reporter) { m_reportError = std::move(reporter); }
    void setSaveChangesPrompt(SaveChangesPrompt prompt) { m_documents->setSaveChangesPrompt(std::move(prompt)); }
    void setCostProvider(CostProvider provider) { m_costs->setCostProvider(std::move(provider)); }
    void reloadProfiles() { m_costs->reloadProfiles(); }
    void openFile(const QString& path) { m_documents->openFile(path); }
    void newGraph(edit::GraphTemplate t = edit::GraphTemplate::Empty) { m_documents->newGraph(t); }
    bool save() { return m_documents->save(); }
    bool saveAs(const QString& path) { return m_documents->saveAs(path); }
    int offerRecovery(RecoveryPrompt prompt = {}) { return m_documents->offerRecovery(std::move(prompt)); }
    void compareWith(const QString& path) { m_interop->compareWith(path); }
    void importTrace(const QString& path) { m_interop->importTrace(path); }
    void selectNode(NodeId id) { m_presenter->selectNode(id); }

    GraphDocument* document() const { return m_documents->document(); }
    Autosaver* autosaver() const { return m_documents->autosaver(); }
    QString currentFile() const { return m_documents->currentFile(); }
    GraphEditor* editor() const { return m_edits->editor(); }
    OpPalette* opPalette() const { return m_edits->opPalette(); }
    QString lastEditCostChange() const { return m_edits->lastEditCostChange(); }
    std::vector<NodeId> selectedNodeIds() const { return m_presenter->selectedNodeIds(); }
    std::shared_ptr<const Graph> graph() const { return m_presenter->graph(); }
    const OverlayModel& overlay() const { return m_presenter->overlay(); }
    OpenGraphFeed* openGraph() const { return m_presenter->feed(); }
    bool restoredSavedView() const { return m_presenter->restoredSavedView(); }
    std::shared_ptr<const DeviceCosts> deviceCosts() const { return m_presenter->deviceCosts(); }
    GraphScene* scene() const { return m_views.scene; }
    CanvasView* canvas() const { return m_views.canvas; }
    NodeTablePanel* nodeTable() const { return m_views.table; }
    NodeTableModel* nodeTableModel() const { return m_views.tableModel; }
    PropertyPanel* propertyPanel() const { return m_views.properties; }
    SummaryPanel* summaryPanel() const { return m_views.summary; }
    DeviceCostTable* deviceCostTable() const { return m_views.deviceTable; }
    SearchBar* searchBar() const { return m_views.search; }
    AnalysisSettingsOwner* analysisSettings() const { return m_settings; }
    RlxVersion rlxVersion() const { return m_settings->value().rlxVersion; }
    Precision precision() const { return m_settings->value().whatIfPrecision(); }
    QComboBox* deviceSelector() const { return m_controls->deviceSelector(); }
    QComboBox* modelSelector() const { return m_controls->modelSelector(); }
    QComboBox* overlaySelector() const { return m_controls->overlaySelector(); }
    QComboBox* rlxVersionSelector() const { return m_controls->rlxVersionSelector(); }
    QComboBox* precisionSelector() const { return m_controls->precisionSelector(); }
    QSpinBox* batchSpin() const { return m_controls->batchSpin(); }
    BindingsEditor* bindingsEditor() const { return m_controls->bindingsEditor(); }
    CostSummaryBar* costSummaryBar() const { return m_costs->costSummaryBar(); }
    QAction* jumpToCostliestAction() const { return m_costs->jumpToCostliestAction(); }

signals:
    void graphLoaded(const QString& path);
    void diffOpened(costscope::DiffWindow* window);
    void traceImported(const QString& report);
    void loadFailed(const QString& message);
    void layoutReady();
    void deviceCostsUpdated();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildFileMenu();

    AnalysisSettingsOwner* m_settings;
    AnalysisControls* m_controls;
    GraphViews m_views;
    GraphPresenter* m_presenter = nullptr;
    CostController* m_costs = nullptr;
    DocumentController* m_documents = nullptr;
    EditController* m_edits = nullptr;
    InteropController* m_interop = nullptr;
    ErrorReporter m_reportError;
};

} // namespace costscope
