// SPDX-License-Identifier: MIT
#include "edit/autosaver.h"
#include "edit/graph_document.h"
#include "formats/costscope_document.h"
#include "formats/graph_file.h"
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <cerrno>
#include <csignal>

namespace costscope {
namespace {

constexpr int kDefaultIntervalMs = 30000;

bool processAlive(qint64 pid)
{
    return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

} // namespace

Autosaver::Autosaver(GraphDocument* doc, SessionFn session, QObject* parent)
    : QObject(parent), m_doc(doc), m_session(std::move(session)), m_timer(new QTimer(this))
{
    m_timer->setInterval(kDefaultIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &Autosaver::saveNow);
    m_timer->start();
    connect(m_doc, &GraphDocument::graphChanged, this, [this] { m_pending = true; });
    connect(m_doc, &GraphDocument::modifiedChanged, this, [this](bool modified) {
        m_pending = modified;
        if (!modified)
            discard();
    });
}

Autosaver::~Autosaver() = default;

void Autosaver::setInterval(int ms) { m_timer->setInterval(std::max(ms, 10)); }

QString Autosaver::recoveryDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

QString Autosaver::copyPath() const
{
    return recoveryDir() + QStringLiteral("/%1.costscope").arg(QCoreApplication::applicationPid());
}

QString Autosaver::metaPath() const
{
    return recoveryDir() + QStringLiteral("/%1.json").arg(QCoreApplication::applicationPid());
}

bool Autosaver::saveNow()
{
    if (!m_pending || !m_doc->isModified() || !m_doc->graph())
        return false;
    QDir().mkpath(recoveryDir());
    CostscopeDocument doc = m_session();
    doc.graph = *m_doc->graph();
    if (!writeFileAtomic(copyPath().toStdString(), writeCostscopeDocument(doc)))
        return false;
    QJsonObject meta{{QStringLiteral("original"), m_doc->path()},
                     {QStringLiteral("saved"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                     {QStringLiteral("pid"), QCoreApplication::applicationPid()}};
    if (!writeFileAtomic(metaPath().toStdString(), QJsonDocument(meta).toJson().toStdString()))
        return false;
    m_pending = false;
    emit autosaved(copyPath());
    return true;
}

void Autosaver::discard()
{
    QFile::remove(copyPath());
    QFile::remove(metaPath());
}

std::vector<RecoveryCopy> Autosaver::orphans()
{
    std::vector<RecoveryCopy> found;
    const QDir dir(recoveryDir());
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject meta = QJsonDocument::fromJson(file.readAll()).object();
        RecoveryCopy copy;
        copy.metaPath = dir.filePath(name);
        copy.copyPath = dir.filePath(QFileInfo(name).completeBaseName() + QStringLiteral(".costscope"));
        copy.originalPath = meta.value(QStringLiteral("original")).toString();
        copy.savedAt = QDateTime::fromString(meta.value(QStringLiteral("saved")).toString(), Qt::ISODateWithMs);
        copy.pid = meta.value(QStringLiteral("pid")).toInteger();
        if (!processAlive(copy.pid) && QFile::exists(copy.copyPath))
            found.push_back(copy);
    }
    std::sort(found.begin(), found.end(), [](const RecoveryCopy& a, const RecoveryCopy& b) { return a.savedAt > b.savedAt; });
    return found;
}

void Autosaver::remove(const RecoveryCopy& copy)
{
    QFile::remove(copy.copyPath);
    QFile::remove(copy.metaPath);
}

} // namespace costscope
