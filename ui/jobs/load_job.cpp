// SPDX-License-Identifier: MIT
#include "jobs/load_job.h"
#include <QtConcurrent/QtConcurrentRun>

namespace costscope {
namespace {

struct Outcome {
    std::shared_ptr<const Graph> graph;
    QString error;
    std::shared_ptr<const CostscopeDocument> session;
};

Outcome load(const QString& path)
{
    const std::string file = path.toStdString();
    auto result = loadGraphFile(file);
    if (!result)
        return {nullptr, QString::fromStdString(result.error().format(file)), nullptr};
    return {std::make_shared<const Graph>(std::move(result->graph)), {}, std::move(result->session)};
}

} // namespace

LoadJob::LoadJob(QObject* parent) : QObject(parent) {}

LoadJob::~LoadJob()
{
    for (auto* w : m_watchers)
        w->waitForFinished();
}

void LoadJob::start(const QString& path)
{
    const quint64 generation = ++m_generation;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    m_watchers.append(watcher);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, path] {
        m_watchers.removeOne(watcher);
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        Outcome out = watcher->result();
        if (out.graph) {
            emit loaded(path, std::move(out.graph));
            if (out.session)
                emit sessionLoaded(path, std::move(out.session));
        } else
            emit failed(path, out.error);
    });
    watcher->setFuture(QtConcurrent::run(load, path));
}

} // namespace costscope
