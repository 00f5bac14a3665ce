// SPDX-License-Identifier: MIT
#include "document_controller.h"
#include "analysis_settings_owner.h"
#include "canvas/canvas_view.h"
#include "edit/autosaver.h"
#include "edit/graph_document.h"
#include "formats/graph_file.h"
#include "graph_presenter.h"
#include "jobs/batched_graph.h"
#include "jobs/load_job.h"
#include "recent_files.h"
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace costscope {

DocumentController::DocumentController(GraphPresenter* presenter, AnalysisSettingsOwner* settings,
                                       SessionViewParts view, ErrorReporter reportError, QMainWindow* window)
    : QObject(window), m_presenter(presenter), m_settings(settings), m_view(view),
      m_reportError(std::move(reportError)), m_window(window), m_doc(new GraphDocument(this)),
      m_autosaver(new Autosaver(
          m_doc, [this] { return sessionDocument(); }, this)),
      m_loader(new LoadJob(this)), m_warningsLabel(new QLabel(window))
{
    m_warningsLabel->setObjectName(QStringLiteral("loadWarnings"));
    m_warningsLabel->hide();
    window->statusBar()->addPermanentWidget(m_warningsLabel);
    m_askSaveChanges = [window](const QString& name) {
        return QMessageBox::question(window, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(name),
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };
    connect(m_loader, &LoadJob::loaded, this, &DocumentController::onLoaded);
    connect(m_loader, &LoadJob::sessionLoaded, this,
            [this](const QString&, std::shared_ptr<const CostscopeDocument> session) { applySession(*session); });
    connect(m_loader, &LoadJob::failed, this, &DocumentController::onLoadFailed);
    connect(m_loader, &LoadJob::warned, this, &DocumentController::onLoadWarned);
    connect(view.canvas, &CanvasView::fileDropped, this, [this](const QString& path) { openFile(path); });
    connect(m_doc, &GraphDocument::modifiedChanged, this, &DocumentController::updateTitle);
    connect(presenter->feed(), &OpenGraphFeed::graphChanged, this, &DocumentController::updateTitle);
    updateTitle();
}

void DocumentController::addFileActions(QMenu* file)
{
    auto* newAction = file->addAction(tr("&New"), QKeySequence::New, this, [this] { newGraph(); });
    newAction->setObjectName(QStringLiteral("actionNew"));
    QMenu* templates = file->addMenu(tr("New from &Template"));
    for (const edit::TemplateInfo& t : edit::graphTemplates()) {
        QAction* a = templates->addAction(QString::fromStdString(t.title), this, [this, id = t.id] { newGraph(id); });
        a->setToolTip(QString::fromStdString(t.description));
        a->setStatusTip(QString::fromStdString(t.description));
    }
    file->addSeparator();
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &DocumentController::chooseFile)
        ->setObjectName(QStringLiteral("actionOpen"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Save"), QKeySequence::Save, this, &DocumentController::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAs(QString()); });
}

void DocumentController::openFile(const QString& path)
{
    if (!maybeSaveChanges())
        return;
    m_window->statusBar()->showMessage(tr("Loading %1 …").arg(path));
    m_loader->start(path);
}

void DocumentController::onLoaded(const QString& path, std::shared_ptr<const Graph> graph)
{
    m_file = path;
    clearLoadWarnings();
    // ONNX is read, never written: Save asks where to put the .costscope or RLX JSON copy.
    m_doc->reset(graph, formatFromPath(path.toStdString()) == GraphFormat::Onnx ? QString() : path);
    // A graph whose inputs fix the batch opens at that batch, so that the batch control shows what the canvas shows;
    // changing it then rebatches the costs.
    if (const auto own = fixedBatch(*graph); own && *own <= kMaxBinding)
        m_settings->setBinding("batch", *own);
    m_presenter->showGraph(std::move(graph), true);
    addRecent(path);
    emit graphLoaded(path);
}

void DocumentController::onLoadFailed(const QString& path, const QString& message)
{
    m_window->statusBar()->showMessage(tr("Could not open %1").arg(path));
    m_reportError(tr("Could not open %1").arg(QFileInfo(path).fileName()), message);
    emit loadFailed(message);
}

void DocumentController::clearLoadWarnings()
{
    m_loadWarnings.clear();
    m_warningsLabel->hide();
}

void DocumentController::onLoadWarned(const QString& path, const QStringList& warnings)
{
    m_loadWarnings = warnings;
    // A permanent mark in the status bar, its tool tip holding every warning: not a dialog (the graph opened as it
    // should), and not a message that the next one replaces.
    m_warningsLabel->setText(tr("⚠ %n load warning(s)", nullptr, int(warnings.size())));
    m_warningsLabel->setToolTip(tr("Loading %1:\n%2").arg(QFileInfo(path).fileName(), warnings.join('\n')));
    m_warningsLabel->show();
}

void DocumentController::newGraph(edit::GraphTemplate t)
{
    if (!maybeSaveChanges())
        return;
    auto graph = std::make_shared<const Graph>(edit::makeTemplate(t));
    m_file.clear();
    clearLoadWarnings();
    m_doc->reset(graph, QString());
    m_presenter->showGraph(std::move(graph), true);
    m_window->statusBar()->showMessage(t == edit::GraphTemplate::Empty
                                           ? tr("New graph: drag ops from the Ops palette onto the canvas")
                                           : tr("New graph from a template"));
}

CostscopeDocument DocumentController::sessionDocument() const
{
    CostscopeDocument doc;
    storeSettings(m_settings->value(), doc);
    storeSessionView(m_view, doc);
    return doc;
}

void DocumentController::applySession(const CostscopeDocument& session)
{
    m_settings->set(settingsFromDocument(session, m_settings->value()));
    if (restoreSessionView(m_view, session))
        m_presenter->setRestoredSavedView();
}

bool DocumentController::save()
{
    return saveAs(m_doc->path());
}

bool DocumentController::saveAs(const QString& requested)
{
    if (!m_presenter->graph())
        return false;
    QString path = requested;
    if (path.isEmpty()) {
        const QString suggested = QFileInfo(m_file).absolutePath() + QLatin1Char('/')
                                  + m_doc->displayName().section(QLatin1Char('.'), 0, 0) + QStringLiteral(".costscope");
        QString filter;
        path = QFileDialog::getSaveFileName(m_window, tr("Save graph"), suggested,
                                            tr("Costscope document (*.costscope);;RLX HIR JSON (*.json)"), &filter);
        if (path.isEmpty())
            return false;
        if (QFileInfo(path).suffix().isEmpty()) // the save switch refuses a name without a format
            path += filter.contains(QLatin1String("*.json")) ? QStringLiteral(".json") : QStringLiteral(".costscope");
    }
    auto saved = m_doc->saveAs(path, sessionDocument());
    if (!saved) {
        m_reportError(tr("Could not save %1").arg(QFileInfo(path).fileName()),
                      QString::fromStdString(saved.error().message));
        return false;
    }
    m_file = path;
    addRecent(path);
    updateTitle();
    m_window->statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool DocumentController::maybeSaveChanges()
{
    if (!m_doc->isModified())
        return true;
    switch (m_askSaveChanges(m_doc->displayName())) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        m_autosaver->discard();
        return true;
    default:
        return false;
    }
}

void DocumentController::updateTitle()
{
    m_window->setWindowTitle(m_presenter->graph() ? QStringLiteral("%1[*] — Costscope").arg(m_doc->displayName())
                                                  : QStringLiteral("Costscope"));
    m_window->setWindowModified(m_doc->isModified());
}

int DocumentController::offerRecovery(RecoveryPrompt prompt)
{
    if (!prompt)
        prompt = [this](const RecoveryCopy& copy) {
            const QString what = copy.originalPath.isEmpty() ? tr("an unsaved new graph") : copy.originalPath;
            return QMessageBox::question(
                       m_window, tr("Restore unsaved changes?"),
                       tr("Costscope did not close normally. Restore the changes to %1 saved at %2?")
                           .arg(what, QLocale().toString(copy.savedAt.toLocalTime(), QLocale::ShortFormat)),
                       QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes)
                   == QMessageBox::Yes;
        };
    int restored = 0;
    for (const RecoveryCopy& copy : Autosaver::orphans()) {
        if (restored == 0 && prompt(copy)) {
            auto loaded = loadGraphFile(copy.copyPath.toStdString());
            if (!loaded) {
                m_reportError(tr("Could not restore"),
                              QString::fromStdString(loaded.error().format(copy.copyPath.toStdString())));
            } else {
                auto graph = std::make_shared<const Graph>(std::move(loaded->graph));
                m_file = copy.originalPath;
                const bool writable = !copy.originalPath.isEmpty()
                                      && formatFromPath(copy.originalPath.toStdString()) != GraphFormat::Onnx;
                m_doc->reset(graph, writable ? copy.originalPath : QString(), true);
                m_presenter->showGraph(std::move(graph), true);
                ++restored;
                m_window->statusBar()->showMessage(
                    tr("Restored unsaved changes from %1").arg(copy.savedAt.toLocalTime().toString()));
            }
        }
        Autosaver::remove(copy); // restored (the live autosave takes over) or declined
    }
    if (restored)
        m_autosaver->saveNow();
    return restored;
}

void DocumentController::chooseFile()
{
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open graph"), QFileInfo(m_file).absolutePath(),
                                     tr("Graphs (*.json *.onnx *.costscope);;RLX HIR JSON (*.json);;ONNX "
                                        "(*.onnx);;Costscope (*.costscope);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void DocumentController::addRecent(const QString& path)
{
    addRecentFile(path);
    rebuildRecentMenu();
}

void DocumentController::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent)
        m_recentMenu->addAction(recentFileLabel(path, recent), this, [this, path] { openFile(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace costscope
