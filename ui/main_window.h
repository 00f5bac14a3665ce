// SPDX-License-Identifier: MIT
#pragma once
#include "analysis_settings_owner.h"
#include "canvas/overlay_model.h"
#include "edit/graph_templates.h"
#include "ir/precision.h"
#include "jobs/cost_job.h"
#include "jobs/device_costs.h"
#include "open_graph_feed.h"
#include <QMainWindow>
#include <QPointF>
#include <functional>
#include <map>
#include <memory>
#include <optional>

class QComboBox;
class QMenu;
class QSpinBox;
class QAction;
class QSettings;

namespace costscope {

class Autosaver;
class BindingsEditor;
class DiffWindow;
class GraphDocument;
class GraphEditor;
class OpPalette;
struct CostscopeDocument;
struct RecoveryCopy;
class CanvasView;
class CostSummaryBar;
class DeviceCostTable;
class GraphScene;
class LegendWidget;
class LoadJob;
class NodeTableModel;
class NodeTablePanel;
class PropertyPanel;
class SearchBar;
class SummaryPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Shows a load error to the user; the default opens a (non-blocking) QMessageBox.
    using ErrorReporter = std::function<void(const QString& title, const QString& message)>;

    // Asked on close (and before another graph replaces an edited one): QMessageBox::Save, Discard or Cancel.
    using SaveChangesPrompt = std::function<int(const QString& documentName)>;
    // Asked at start for each recovery copy a crashed session left: true restores it.
    using RecoveryPrompt = std::function<bool(const RecoveryCopy& copy)>;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openFile(const QString& path);
    void setErrorReporter(ErrorReporter reporter) { m_reportError = std::move(reporter); }
    void setSaveChangesPrompt(SaveChangesPrompt prompt) { m_askSaveChanges = std::move(prompt); }

    // main_window_edit.cpp: documents and editing.
    GraphDocument* document() const { return m_doc; }
    GraphEditor* editor() const { return m_editor; }
    Autosaver* autosaver() const { return m_autosaver; }
    OpPalette* opPalette() const { return m_palette; }
    void newGraph(edit::GraphTemplate t = edit::GraphTemplate::Empty);
    bool save();                        // to the document's path, or Save As when it has none
    bool saveAs(const QString& path);   // .costscope or RLX .json, atomically
    // Offers every recovery copy left by a session that did not close; returns how many were restored.
    int offerRecovery(RecoveryPrompt prompt = {});
    std::vector<NodeId> selectedNodeIds() const;
    // main_window_interop.cpp: opens `path` (off the GUI thread) and shows it beside the current graph
    // (diffOpened, or a load error through the error reporter).
    void compareWith(const QString& path);
    // Loads a measured trace (off the GUI thread), matches its events to nodes by name and shows them as the Measured
    // overlay; traceImported says what matched and what did not (a trace that matches nothing is an error).
    void importTrace(const QString& path);
    // "Fuse 4 nodes: Cpu 1.20 ms → 0.91 ms" after the costs of the last edit arrived; empty before.
    QString lastEditCostChange() const { return m_lastEditCostChange; }
    // Without a provider the canvas shows no cost overlay.
    void setCostProvider(CostProvider provider);

    std::shared_ptr<const Graph> graph() const { return m_graph; }
    QString currentFile() const { return m_file; }
    GraphScene* scene() const { return m_scene; }
    CanvasView* canvas() const { return m_canvas; }
    NodeTablePanel* nodeTable() const { return m_table; }
    NodeTableModel* nodeTableModel() const { return m_tableModel; }
    PropertyPanel* propertyPanel() const { return m_properties; }
    SummaryPanel* summaryPanel() const { return m_summary; }
    SearchBar* searchBar() const { return m_search; }
    const OverlayModel& overlay() const { return m_overlay; }
    // What the panels and charts follow (graph, overlays, settings and their changes), instead of this window.
    OpenGraphFeed* openGraph() const { return m_feed; }
    // The one owner of the analysis settings (model, device, bindings, precision, RLX version): read it, bind to it.
    AnalysisSettingsOwner* analysisSettings() const { return m_settings; }
    QComboBox* deviceSelector() const { return m_device; }
    QComboBox* modelSelector() const { return m_model; }
    QComboBox* overlaySelector() const { return m_overlayMode; }
    // Whose device-pick rule the pick follows (RLX 0.2.16 or 0.2.14), kept in the settings.
    QComboBox* rlxVersionSelector() const { return m_rlxVersion; }
    RlxVersion rlxVersion() const;
    QSpinBox* batchSpin() const { return m_batch; }
    // The precision what-if (main_window_precision.cpp): the costs are those of the graph re-typed to it.
    QComboBox* precisionSelector() const { return m_precision; }
    // Whether the open graph's document restored a saved view (zoom and position), which the first view keeps.
    bool restoredSavedView() const { return m_savedView; }
    Precision precision() const;
    BindingsEditor* bindingsEditor() const { return m_bindings; }
    CostSummaryBar* costSummaryBar() const { return m_costBar; }
    DeviceCostTable* deviceCostTable() const { return m_deviceTable; }
    QAction* jumpToCostliestAction() const { return m_jumpCostliest; }
    // A run's measured ns per node index of `graph` for the Measured overlay; ignored unless `graph` is the open one.
    void showMeasured(const std::shared_ptr<const Graph>& graph, std::vector<std::optional<double>> nsByNode);
    // Selects the node (graph position) on the canvas and in the tables, and scrolls the canvas to it.
    void selectNode(int nodeIndex);
    // Costs on every device for the current model and bindings, once computed (nullptr before).
    std::shared_ptr<const DeviceCosts> deviceCosts() const { return m_deviceCosts; }

    static constexpr std::size_t kCostliestCount = 10;
    // Reads the profiles again (one was saved) and lists them in the device selector, keeping the choice.
    void reloadProfiles();

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
    void buildMenus();
    void buildToolBar();
    void buildDocks();
    void onLoaded(const QString& path, std::shared_ptr<const Graph> graph);
    // A .costscope file's settings, view and groups, after its graph is shown.
    void applySession(const CostscopeDocument& session);
    void onLoadFailed(const QString& path, const QString& message);
    void onCanvasSelection(int nodeIndex);
    void onTableSelection(int nodeIndex);
    void showNode(int nodeIndex);
    void showGraph(std::shared_ptr<const Graph> graph, bool fresh);
    void restoreViewSettings(const QSettings& settings);
    void saveViewSettings(QSettings& settings) const;
    // main_window_edit.cpp
    void buildEditing();
    void buildEditMenu();
    void addEditFileActions();
    void onNodeContextMenu(int nodeIndex, QMenu* menu);
    void onOpDropped(const QByteArray& opName, QPointF scenePos);
    void onGraphEdited(std::shared_ptr<const Graph> graph);
    void reselectAfterLayout();
    bool maybeSaveChanges(); // false: the user cancelled
    void updateTitle();
    CostscopeDocument sessionDocument() const;
    void renameSelected();
    void addCompareAction();
    void groupSelected();
    // main_window_analysis.cpp: bindings, presets, the all-devices costs, summary bar, jump to the costliest.
    QWidget* makeBatchPresets(QWidget* parent);
    QWidget* makePropertiesPane();
    void buildAnalysisTools();
    QComboBox* makeRlxVersionSelector(QWidget* parent);
    QComboBox* makePrecisionSelector(QWidget* parent);
    // `graph` re-typed to the settings' precision (itself at fp32, or where the what-if cannot apply, said so).
    std::shared_ptr<const Graph> atPrecision(std::shared_ptr<const Graph> graph);
    void resetAnalysisForGraph();
    void requestCosts();
    void requestDeviceCosts(std::shared_ptr<const Graph> graph, const std::string& model, const Bindings& bindings,
                            const std::string& precision);
    // What the batch control does on this graph (rebatched, or why it cannot change), on its tooltip and once in
    // the status bar.
    void showBatchNote(const QString& note, bool pinned);
    void applyDeviceCosts(std::shared_ptr<const DeviceCosts> costs);
    void jumpToNextCostliest();
    void applyCosts(std::shared_ptr<const GraphCost> cost);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void chooseFile();

    AnalysisSettingsOwner* m_settings = new AnalysisSettingsOwner(this);
    std::shared_ptr<const Graph> m_graph;
    QString m_file;
    GraphScene* m_scene;
    CanvasView* m_canvas;
    OverlayModel m_overlay;
    OpenGraphFeed* m_feed = new OpenGraphFeed(m_overlay, m_settings, this);
    LegendWidget* m_legend = nullptr;
    NodeTableModel* m_tableModel;
    NodeTablePanel* m_table = nullptr;
    PropertyPanel* m_properties = nullptr;
    SummaryPanel* m_summary = nullptr;
    SearchBar* m_search = nullptr;
    LoadJob* m_loader;
    QMenu* m_recentMenu = nullptr;
    QComboBox* m_model = nullptr;
    QComboBox* m_device = nullptr;
    QComboBox* m_overlayMode = nullptr;
    QComboBox* m_rlxVersion = nullptr;
    QComboBox* m_precision = nullptr;
    QSpinBox* m_batch = nullptr;
    BindingsEditor* m_bindings = nullptr;
    CostSummaryBar* m_costBar = nullptr;
    DeviceCostTable* m_deviceTable = nullptr;
    QAction* m_jumpCostliest = nullptr;
    std::shared_ptr<const DeviceCosts> m_deviceCosts;
    quint64 m_deviceCostsGeneration = 0;
    bool m_costPending = false; // a single-device job for the current request is under way
    std::vector<std::size_t> m_costliest;
    const GraphCost* m_costliestFor = nullptr;
    std::size_t m_costliestCursor = 0;
    ErrorReporter m_reportError;
    CostProvider m_costProvider;
    quint64 m_costGeneration = 0;
    bool m_fitOnLayout = false;
    bool m_savedView = false; // the open document brought back its own view (no first-view framing)
    bool m_syncingSelection = false;
    GraphDocument* m_doc = nullptr;
    GraphEditor* m_editor = nullptr;
    Autosaver* m_autosaver = nullptr;
    OpPalette* m_palette = nullptr;
    SaveChangesPrompt m_askSaveChanges;
    std::vector<NodeId> m_reselect;          // ids to select once the edited graph is drawn
    std::optional<double> m_totalBeforeEdit; // the shown total when the last edit was made
    QString m_lastEditText;
    QString m_lastEditCostChange;
    QString m_lastTraceReport;
    QString m_batchNote;
};

} // namespace costscope
