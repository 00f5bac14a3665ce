// SPDX-License-Identifier: MIT
#pragma once
// The one way long work leaves the GUI thread (Hotspot's JobTracker): a tracker runs one job at a time on the thread
// pool, hands its result back on its own thread, and drops a result the user moved on from. Starting a job again
// supersedes the running one (its cancel flag is set, its result is dropped); drop() does the same without a new job;
// cancel() asks the job to stop but still delivers what it returns (a panel shows "cancelled"). Destroying the tracker
// while a job runs is safe: the job's flag is set and its result goes nowhere.
#include <QCoreApplication>
#include <QFuture>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <type_traits>
#include <utility>

namespace costscope {

class JobTracker;

// What a job's work sees: whether it should stop, and a way to say how far it got.
class JobContext {
public:
    bool cancelled() const { return m_cancel->load(); }
    // For the engine's and the analyses' `const std::atomic<bool>* cancel` parameters.
    const std::atomic<bool>* cancelFlag() const { return m_cancel.get(); }
    // Reaches JobTracker::progressed on the tracker's thread, unless the job is no longer the current one.
    void progress(int done, int total) const;

private:
    friend class JobTracker;
    JobContext(std::shared_ptr<std::atomic<bool>> cancel, QPointer<JobTracker> tracker, quint64 id)
        : m_cancel(std::move(cancel)), m_tracker(std::move(tracker)), m_id(id)
    {
    }
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QPointer<JobTracker> m_tracker;
    quint64 m_id;
};

class JobTracker : public QObject {
    Q_OBJECT
public:
    explicit JobTracker(QObject* parent = nullptr) : QObject(parent) {}
    ~JobTracker() override { drop(); }

    // Runs `work(const JobContext&)` (or `work()`) on the thread pool and calls `deliver(result)` on this tracker's
    // thread once it returns, unless another start() or drop() came first. Returns the job's id (isCurrent).
    template <typename Work, typename Deliver>
    quint64 start(Work work, Deliver deliver)
    {
        const quint64 id = begin();
        QPointer<JobTracker> self(this);
        m_futures.append(QtConcurrent::run(
            [self, id, cancel = m_cancel, work = std::move(work), deliver = std::move(deliver)]() mutable {
                const JobContext context(cancel, self, id);
                auto result = std::make_shared<decltype(invoke(work, context))>(invoke(work, context));
                // qApp lives on the GUI thread, where the tracker lives; the tracker may be gone by the time this runs.
                QMetaObject::invokeMethod(qApp, [self, id, deliver = std::move(deliver), result]() mutable {
                    if (self && self->end(id))
                        deliver(std::move(*result));
                });
            }));
        return id;
    }

    // The current job's result is no longer wanted: it is asked to stop and what it returns is dropped.
    void drop();
    // Asks the current job to stop; what it returns is still delivered.
    void cancel();
    // Whether `id` is the latest job started and not dropped since.
    bool isCurrent(quint64 id) const { return id == m_current && m_cancel && !m_dropped; }
    // A job of this tracker runs (the current one, or one dropped that has not returned yet).
    bool busy() const { return m_running > 0; }
    // Blocks until every job started has returned, for an owner whose job holds what must end with it (a dialog's
    // ssh child); results still arrive later, through the event loop, or not at all once the tracker is gone.
    void waitForDone();
    // The current job runs and its result will be delivered.
    bool pending() const { return m_current != 0 && !m_dropped && m_currentRunning; }

signals:
    void busyChanged(bool busy);
    // Said by the current job's JobContext::progress.
    void progressed(int done, int total);

private:
    friend class JobContext;
    template <typename Work>
    static auto invoke(Work& work, const JobContext& context)
    {
        if constexpr (std::is_invocable_v<Work&, const JobContext&>)
            return work(context);
        else
            return work();
    }
    quint64 begin();
    // A job returned: true when its result is to be delivered.
    bool end(quint64 id);
    void reportProgress(quint64 id, int done, int total);

    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_current = 0;
    quint64 m_lastId = 0;
    bool m_dropped = false;
    bool m_currentRunning = false;
    int m_running = 0;
    QList<QFuture<void>> m_futures; // of the jobs that may still run (waitForDone)
};

} // namespace costscope
