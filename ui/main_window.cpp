// SPDX-License-Identifier: MIT
#include "main_window.h"
#include "canvas/fusion_badges.h"
#include "canvas/graph_scene.h"
#include "canvas/neighbourhood_bar.h"
#include "charts/icicle_chart.h"
#include "charts/roofline_chart.h"
#include "charts/sweep_dock.h"
#include "dock_layout.h"
#include "edit/autosaver.h"
#include "edit/graph_document.h"
#include "export_menu.h"
#include "first_contact.h"
#include "panels/remote_devices_dialog.h"
#include "panels/run_panel.h"
#include "panels/sweep_runs_dialog.h"
#include "panels/top_nodes_panel.h"
#include "resources_init.h"
#include "view_menu.h"
#include "view_settings.h"
#include <QCloseEvent>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>

namespace costscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_settings(new AnalysisSettingsOwner(this)),
      m_controls(new AnalysisControls(m_settings, this))
{
    initResources();
    setWindowTitle(QStringLiteral("Costscope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/costscope.svg")));
    setAcceptDrops(true);
    m_reportError = [this](const QString& title, const QString& message) {
        auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("loadErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open(); // window-modal but non-blocking: the event loop (and tests) keep running
    };
    const ErrorReporter reportError = [this](const QString& title, const QString& message) {
        m_reportError(title, message);
    };

    m_views = addGraphViews(this, m_controls->legend(), m_controls->searchBar());
    m_presenter = new GraphPresenter(m_views, m_settings, this);
    OpenGraphFeed* feed = m_presenter->feed();
    installRunPanel(this, feed, m_views.scene);
    installTopNodesDock(this, feed);
    installRooflineDock(this, feed);
    m_costs = new CostController(m_settings, m_presenter, m_controls, this);
    m_documents =
        new DocumentController(m_presenter, m_settings,
                               {m_controls->overlaySelector(), this, m_views.canvas, m_views.scene}, reportError, this);
    m_interop = new InteropController(m_documents, m_presenter, m_costs, m_controls, reportError, this);
    if (auto* runs = findChild<RunPanel*>()) // an edited graph is no longer its file's: it travels as HIR JSON
        runs->setGraphFile([this] { return m_documents->document()->isModified() ? QString() : currentFile(); });
    buildFileMenu();
    addViewMenu(this, m_presenter);
    menuBar()->addMenu(tr("&Help"))->addAction(tr("&About Costscope"), this, [this] {
        QMessageBox::about(this, tr("About Costscope"),
                           tr("<b>Costscope %1</b><p>Visual cost analysis of ML computation graphs.</p>")
                               .arg(QStringLiteral(COSTSCOPE_VERSION)));
    });
    m_costs->addAnalysisMenu(m_controls->addBindingsDock(m_views.summaryDock));
    installSweepDock(this, feed, m_views.scene, m_controls->bindingsEditor());
    m_edits = new EditController(m_documents, m_presenter, this);
    installFirstContact(this, m_presenter, m_documents);
    installFusionBadges(m_views.scene);
    installNeighbourhoodView(this, m_views.scene, m_views.canvas);
    installIcicleDock(this, feed);
    statusBar()->showMessage(tr("Open a graph: File → Open, or drop a file here"));

    connect(m_controls, &AnalysisControls::overlayModeChanged, m_presenter, [this](OverlayMode mode) {
        m_presenter->overlay().setMode(mode);
        m_presenter->refreshOverlay();
    });
    connect(m_presenter, &GraphPresenter::layoutReady, this, &MainWindow::layoutReady);
    connect(m_costs, &CostController::deviceCostsUpdated, this, &MainWindow::deviceCostsUpdated);
    connect(m_documents, &DocumentController::graphLoaded, this, &MainWindow::graphLoaded);
    connect(m_documents, &DocumentController::loadFailed, this, &MainWindow::loadFailed);
    connect(m_interop, &InteropController::diffOpened, this, &MainWindow::diffOpened);
    connect(m_interop, &InteropController::traceImported, this, &MainWindow::traceImported);

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        applyDefaultDockLayout(this);
    restoreViewSettings(settings, *m_controls, *this);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_documents->addFileActions(file);
    m_interop->addFileActions(file);
    addExportMenu(
        this, file, m_presenter->feed(), [this] { return m_documents->currentFile(); }, m_views.scene);
    file->addAction(tr("Remote &Devices…"), this, [this] {
        RemoteDevicesDialog dialog(this);
        connect(&dialog, &RemoteDevicesDialog::profileSaved, m_costs, &CostController::reloadProfiles);
        if (auto* runs = findChild<RunPanel*>()) {
            connect(&dialog, &RemoteDevicesDialog::devicesListed, runs, &RunPanel::addRemoteDevices);
            connect(&dialog, &RemoteDevicesDialog::hostRemoved, runs, &RunPanel::removeRemoteDevices);
        }
        dialog.exec();
    });
    file->addAction(tr("Sweep &Runs on Ray…"), this, [this] {
        // An edited graph is no longer its file's: the workers run the file.
        SweepRunsDialog dialog(currentFile(), this,
                               m_documents->document()->isModified() ? nullptr : m_presenter->feed()->graph());
        if (auto* runs = findChild<RunPanel*>()) {
            connect(&dialog, &SweepRunsDialog::compareRequested, runs, &RunPanel::showSweep);
            connect(&dialog, &SweepRunsDialog::runRequested, runs, &RunPanel::showRun);
        }
        dialog.exec();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_documents->maybeSaveChanges()) {
        event->ignore();
        return;
    }
    m_documents->autosaver()->discard(); // saved, or discarded: no recovery copy should outlive the window
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    saveViewSettings(settings, *m_controls, *this);
    QMainWindow::closeEvent(event);
}

// A move that reaches the window (over a dock, the toolbar or the status bar) keeps a local file accepted, whatever
// a child on the way answered.
void MainWindow::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    dragMoveEvent(event);
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        m_documents->openFile(urls.front().toLocalFile());
        event->acceptProposedAction();
    }
}

} // namespace costscope
