// SPDX-License-Identifier: MIT
#pragma once
#include <QDateTime>
#include <QObject>
#include <QString>
#include <functional>
#include <vector>

class QTimer;

namespace costscope {

class GraphDocument;
struct CostscopeDocument;

// A recovery copy left by a Costscope that did not close normally.
struct RecoveryCopy {
    QString copyPath;     // the .costscope copy
    QString metaPath;     // what it is a copy of, and when it was written
    QString originalPath; // empty for a graph never saved
    QDateTime savedAt;
    qint64 pid = 0;
};

// Writes a recovery copy of an unsaved document every interval (30 s by default) into
// <app data>/recovery/<pid>.costscope, and removes it once the document is saved, closed or discarded.
class Autosaver : public QObject {
    Q_OBJECT
public:
    using SessionFn = std::function<CostscopeDocument()>;
    Autosaver(GraphDocument* doc, SessionFn session, QObject* parent = nullptr);
    ~Autosaver() override;

    void setInterval(int ms);
    // Writes the copy now when there are unsaved changes not yet copied; true when one was written.
    bool saveNow();
    // Removes this process's copy (the document was saved, closed, or its changes were discarded).
    void discard();

    static QString recoveryDir();
    // Copies whose process is gone, newest first.
    static std::vector<RecoveryCopy> orphans();
    static void remove(const RecoveryCopy& copy);

signals:
    void autosaved(const QString& copyPath);

private:
    QString copyPath() const;
    QString metaPath() const;

    GraphDocument* m_doc;
    SessionFn m_session;
    QTimer* m_timer;
    bool m_pending = false; // changes since the last copy
};

} // namespace costscope
