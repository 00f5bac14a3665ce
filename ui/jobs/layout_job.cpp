// SPDX-License-Identifier: MIT
#include "jobs/layout_job.h"
#include <QtConcurrent/QtConcurrentRun>

namespace costscope {

LayoutJob::LayoutJob(QObject* parent) : QObject(parent) {}

LayoutJob::~LayoutJob()
{
    cancel();
    if (m_current.watcher)
        m_current.watcher->waitForFinished();
}

void LayoutJob::cancel()
{
    if (m_current.cancel)
        m_current.cancel->store(true);
}

void LayoutJob::start(layout::LayoutInput input, std::shared_ptr<const layout::LayoutHint> hint)
{
    cancel();
    const quint64 generation = ++m_generation;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    auto* watcher = new QFutureWatcher<std::shared_ptr<const layout::LayoutResult>>(this);
    m_current = {flag, watcher};
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (m_current.watcher == watcher)
            m_current.watcher = nullptr;
        if (generation != m_generation)
            return;
        auto result = watcher->result();
        if (!result->cancelled)
            emit finished(std::move(result));
    });
    watcher->setFuture(QtConcurrent::run([input = std::move(input), hint = std::move(hint), flag] {
        return std::make_shared<const layout::LayoutResult>(layout::layeredLayout(input, hint.get(), flag.get()));
    }));
}

} // namespace costscope
