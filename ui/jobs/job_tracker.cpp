// SPDX-License-Identifier: MIT
#include "jobs/job_tracker.h"

#include <QCoreApplication>

namespace costscope {

void JobContext::progress(int done, int total) const
{
    QMetaObject::invokeMethod(qApp, [tracker = m_tracker, id = m_id, done, total] {
        if (tracker)
            tracker->reportProgress(id, done, total);
    });
}

quint64 JobTracker::begin()
{
    drop();
    m_futures.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_current = ++m_lastId;
    m_dropped = false;
    m_currentRunning = true;
    if (m_running++ == 0)
        emit busyChanged(true);
    return m_current;
}

bool JobTracker::end(quint64 id)
{
    const bool deliver = isCurrent(id);
    if (id == m_current)
        m_currentRunning = false;
    // Said before the result is delivered, so that a view handling the result finds its controls free again.
    if (--m_running == 0)
        emit busyChanged(false);
    return deliver;
}

void JobTracker::drop()
{
    if (m_cancel)
        m_cancel->store(true);
    m_dropped = true;
}

void JobTracker::waitForDone()
{
    for (QFuture<void>& f : m_futures)
        f.waitForFinished();
    m_futures.clear();
}

void JobTracker::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void JobTracker::reportProgress(quint64 id, int done, int total)
{
    if (isCurrent(id))
        emit progressed(done, total);
}

} // namespace costscope
