// SPDX-License-Identifier: MIT
// The main window's menus, toolbar, recent files, drag and drop and the cost request.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/legend_widget.h"
#include "device_selector.h"
#include "export_menu.h"
#include "main_window.h"
#include "panels/node_table_model.h"
#include "panels/remote_devices_dialog.h"
#include "panels/run_panel.h"
#include "panels/search_bar.h"
#include "panels/sweep_runs_dialog.h"
#include "recent_files.h"
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMap>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSpinBox>
#include <QToolBar>

namespace costscope {
void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseFile)
        ->setObjectName(QStringLiteral("actionOpen"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    addExportMenu(
        this, file, m_feed, [this] { return m_file; }, m_scene);
    file->addAction(tr("Remote &Devices…"), this, [this] {
        RemoteDevicesDialog dialog(this);
        connect(&dialog, &RemoteDevicesDialog::profileSaved, this, &MainWindow::reloadProfiles);
        dialog.exec();
    });
    file->addAction(tr("Sweep &Runs on Ray…"), this, [this] {
        SweepRunsDialog dialog(currentFile(), this);
        if (auto* runs = findChild<RunPanel*>())
            connect(&dialog, &SweepRunsDialog::compareRequested, runs, &RunPanel::showSweep);
        dialog.exec();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* params = view->addAction(tr("Show &Parameters"));
    params->setCheckable(true);
    params->setChecked(m_scene->showParams());
    params->setObjectName(QStringLiteral("actionShowParams"));
    connect(params, &QAction::toggled, m_scene, &GraphScene::setShowParams);
    QAction* lr = view->addAction(tr("&Left to Right"));
    lr->setObjectName(QStringLiteral("actionLeftToRight"));
    lr->setCheckable(true);
    connect(lr, &QAction::toggled, this, [this](bool on) {
        m_fitOnLayout = true;
        m_scene->setDirection(on ? layout::Direction::LeftToRight : layout::Direction::TopToBottom);
    });
    view->addSeparator();
    view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] { m_canvas->zoomBy(1.25); });
    view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] { m_canvas->zoomBy(0.8); });
    view->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), m_canvas, &CanvasView::fitAll)
        ->setObjectName(QStringLiteral("actionFit"));
    QAction* minimap = view->addAction(tr("&Minimap"));
    minimap->setObjectName(QStringLiteral("actionMinimap"));
    minimap->setCheckable(true);
    minimap->setChecked(true);
    connect(minimap, &QAction::toggled, m_canvas, &CanvasView::setMinimapVisible);
    QAction* absolute = view->addAction(tr("&Absolute Heat Scale"));
    absolute->setObjectName(QStringLiteral("actionAbsoluteHeat"));
    absolute->setCheckable(true);
    absolute->setToolTip(tr("Colour costs from 100 ns to 100 ms and bytes from 1 KiB to 1 GiB, whatever the graph"));
    connect(absolute, &QAction::toggled, this, [this](bool on) {
        m_overlay.setScale(on ? HeatScale::Absolute : HeatScale::Auto);
        m_scene->refreshOverlay();
        m_legend->refresh();
    });
    view->addSeparator();
    view->addAction(tr("&Collapse All Groups"), m_scene, &GraphScene::collapseAll)
        ->setObjectName(QStringLiteral("actionCollapseAll"));
    view->addAction(tr("&Expand All Groups"), m_scene, &GraphScene::expandAll)
        ->setObjectName(QStringLiteral("actionExpandAll"));
    view->addAction(tr("&Find…"), QKeySequence::Find, m_search, &SearchBar::focusSearch)
        ->setObjectName(QStringLiteral("actionFind"));
    view->addAction(tr("Find &Next"), QKeySequence::FindNext, m_search, &SearchBar::next);
    view->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, m_search, &SearchBar::previous);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Costscope"), this, [this] {
        QMessageBox::about(this, tr("About Costscope"),
                           tr("<b>Costscope %1</b><p>Visual cost analysis of ML computation graphs.</p>")
                               .arg(QStringLiteral(COSTSCOPE_VERSION)));
    });
}

void MainWindow::buildToolBar()
{
    QToolBar* bar = addToolBar(tr("Analysis"));
    bar->setObjectName(QStringLiteral("analysisToolBar"));
    bar->setMovable(false);
    m_model = new QComboBox(bar);
    m_model->addItems(costModelNames());
    m_model->setToolTip(tr("Cost model"));
    m_device = new QComboBox(bar);
    fillDeviceSelector(m_device);
    m_device->setToolTip(tr("Device"));
    m_batch = new QSpinBox(bar);
    m_batch->setRange(1, kMaxBinding); // the Bindings dock's range: both show one value (AnalysisSettingsOwner)
    m_batch->setValue(1);
    m_batch->setPrefix(tr("batch "));
    m_batch->setToolTip(tr("Value of the symbol 'batch'"));
    m_overlayMode = new QComboBox(bar);
    m_overlayMode->addItem(tr("Cost"), static_cast<int>(OverlayMode::Cost));
    m_overlayMode->addItem(tr("IO bytes"), static_cast<int>(OverlayMode::IoBytes));
    m_overlayMode->addItem(tr("Sync points"), static_cast<int>(OverlayMode::SyncPoints));
    m_overlayMode->addItem(tr("Dominant term"), static_cast<int>(OverlayMode::Dominant));
    m_overlayMode->addItem(tr("No overlay"), static_cast<int>(OverlayMode::None));
    m_legend = new LegendWidget(bar);
    m_legend->setOverlay(&m_overlay);
    m_search = new SearchBar(bar);

    bar->addWidget(new QLabel(tr(" Model "), bar));
    bar->addWidget(m_model);
    bar->addWidget(new QLabel(tr(" Device "), bar));
    bar->addWidget(m_device);
    bar->addWidget(m_batch);
    bar->addWidget(makeBatchPresets(bar));
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Overlay "), bar));
    bar->addWidget(m_overlayMode);
    bar->addWidget(m_legend);
    bar->addSeparator();
    bar->addWidget(m_search);

    connect(m_overlayMode, &QComboBox::currentIndexChanged, this, [this] {
        m_overlay.setMode(static_cast<OverlayMode>(m_overlayMode->currentData().toInt()));
        m_scene->refreshOverlay();
        m_legend->refresh();
    });
    connect(m_search, &SearchBar::nodeFound, this, [this](int node) {
        onTableSelection(node);
        onCanvasSelection(node);
    });
}

void MainWindow::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open graph"), QFileInfo(m_file).absolutePath(),
        tr("Graphs (*.json *.onnx *.costscope);;RLX HIR JSON (*.json);;ONNX (*.onnx);;Costscope (*.costscope);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::addRecent(const QString& path)
{
    addRecentFile(path);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent)
        m_recentMenu->addAction(recentFileLabel(path, recent), this, [this, path] { openFile(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().front().isLocalFile())
        event->acceptProposedAction();
}

// A move that reaches the window (over a dock, the toolbar or the status bar) keeps the file accepted, whatever a
// child on the way answered.
void MainWindow::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        openFile(urls.front().toLocalFile());
        event->acceptProposedAction();
    }
}

} // namespace costscope
