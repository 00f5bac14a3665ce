// SPDX-License-Identifier: MIT
#pragma once
// The open file and its document: open (off the GUI thread, with a .costscope file's settings and view), new and
// new from a template, save and save as, the unsaved-changes prompt, crash recovery, the recent files and the
// window title.
#include "edit/graph_templates.h"
#include "session_view.h"
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

class QLabel;
class QMainWindow;
class QMenu;

namespace costscope {

class AnalysisSettingsOwner;
class Autosaver;
class GraphDocument;
class GraphPresenter;
class LoadJob;
class Graph;
struct RecoveryCopy;

// Shows an error to the user (title, message).
using ErrorReporter = std::function<void(const QString& title, const QString& message)>;

class DocumentController : public QObject {
    Q_OBJECT
public:
    // Asked on close (and before another graph replaces an edited one): QMessageBox::Save, Discard or Cancel.
    using SaveChangesPrompt = std::function<int(const QString& documentName)>;
    // Asked at start for each recovery copy a crashed session left: true restores it.
    using RecoveryPrompt = std::function<bool(const RecoveryCopy& copy)>;

    DocumentController(GraphPresenter* presenter, AnalysisSettingsOwner* settings, SessionViewParts view,
                       ErrorReporter reportError, QMainWindow* window);

    GraphDocument* document() const { return m_doc; }
    Autosaver* autosaver() const { return m_autosaver; }
    QString currentFile() const { return m_file; }
    void setSaveChangesPrompt(SaveChangesPrompt prompt) { m_askSaveChanges = std::move(prompt); }
    // File menu: New, New from Template, Open, Open Recent, Save, Save As.
    void addFileActions(QMenu* file);

    void openFile(const QString& path);
    void newGraph(edit::GraphTemplate t = edit::GraphTemplate::Empty);
    bool save();                      // to the document's path, or Save As when it has none
    bool saveAs(const QString& path); // .costscope or RLX .json, atomically
    // Offers every recovery copy left by a session that did not close; returns how many were restored.
    int offerRecovery(RecoveryPrompt prompt = {});
    bool maybeSaveChanges(); // false: the user cancelled

    // What the reader warned of when the open file was loaded (empty: nothing), as costscope-cli prints it.
    const QStringList& loadWarnings() const { return m_loadWarnings; }

signals:
    void graphLoaded(const QString& path);
    void loadFailed(const QString& message);

private:
    void onLoaded(const QString& path, std::shared_ptr<const Graph> graph);
    void onLoadFailed(const QString& path, const QString& message);
    void onLoadWarned(const QString& path, const QStringList& warnings);
    void clearLoadWarnings();
    // A .costscope file's settings, view and groups, after its graph is shown.
    void applySession(const CostscopeDocument& session);
    CostscopeDocument sessionDocument() const;
    void updateTitle();
    void chooseFile();
    void addRecent(const QString& path);
    void rebuildRecentMenu();

    GraphPresenter* m_presenter;
    AnalysisSettingsOwner* m_settings;
    SessionViewParts m_view;
    ErrorReporter m_reportError;
    QMainWindow* m_window;
    GraphDocument* m_doc;
    Autosaver* m_autosaver;
    LoadJob* m_loader;
    QStringList m_loadWarnings;
    QLabel* m_warningsLabel; // in the status bar, shown while the open file's load warned
    SaveChangesPrompt m_askSaveChanges;
    QMenu* m_recentMenu = nullptr;
    QString m_file;
};

} // namespace costscope
