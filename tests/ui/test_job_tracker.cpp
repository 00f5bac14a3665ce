// SPDX-License-Identifier: MIT
// JobTracker, the one owner of background jobs: a result comes back on the GUI thread, a second start drops the
// first's result (and asks it to stop), cancel stops a job but keeps its answer, drop keeps nothing, progress of a
// superseded job is dropped, waitForDone waits for every job, and destroying the tracker while a job runs is safe.
#include "jobs/job_tracker.h"
#include <QSemaphore>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

using namespace costscope;

namespace {
constexpr int kWaitMs = 10000;

// Waits, off the GUI thread, until the job is asked to stop (or a long time passed).
bool waitForCancel(const JobContext& job)
{
    for (int i = 0; i < 10000 && !job.cancelled(); ++i)
        QThread::msleep(1);
    return job.cancelled();
}
} // namespace

class TestJobTracker : public QObject {
    Q_OBJECT
private slots:
    void deliversTheResultOnTheTrackersThread()
    {
        JobTracker jobs;
        QSignalSpy busy(&jobs, &JobTracker::busyChanged);
        QThread* deliveredOn = nullptr;
        int result = 0;
        jobs.start([] { return 42; },
                   [&](int r) {
                       result = r;
                       deliveredOn = QThread::currentThread();
                   });
        QVERIFY(jobs.busy());
        QTRY_COMPARE_WITH_TIMEOUT(result, 42, kWaitMs);
        QCOMPARE(deliveredOn, QThread::currentThread());
        QVERIFY(!jobs.busy());
        QCOMPARE(busy.size(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void aSecondStartDropsTheFirstsResult()
    {
        JobTracker jobs;
        QSemaphore firstMayReturn;
        bool firstSawCancel = false;
        QStringList delivered;
        const quint64 first = jobs.start(
            [&](const JobContext& job) {
                firstMayReturn.acquire();
                firstSawCancel = job.cancelled();
                return QStringLiteral("first");
            },
            [&](const QString& r) { delivered << r; });
        const quint64 second =
            jobs.start([] { return QStringLiteral("second"); }, [&](const QString& r) { delivered << r; });
        QVERIFY(!jobs.isCurrent(first));
        QVERIFY(jobs.isCurrent(second));
        QTRY_COMPARE_WITH_TIMEOUT(delivered, QStringList{QStringLiteral("second")}, kWaitMs);
        QVERIFY(jobs.busy()); // the first has not returned yet
        firstMayReturn.release();
        QTRY_VERIFY_WITH_TIMEOUT(!jobs.busy(), kWaitMs);
        QVERIFY(firstSawCancel);
        QCOMPARE(delivered, QStringList{QStringLiteral("second")});
    }

    void cancelStopsTheJobButKeepsItsAnswer()
    {
        JobTracker jobs;
        QString delivered;
        jobs.start([](const JobContext& job) { return waitForCancel(job) ? QStringLiteral("cancelled") : QString(); },
                   [&](const QString& r) { delivered = r; });
        jobs.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(delivered, QStringLiteral("cancelled"), kWaitMs);
        QVERIFY(!jobs.busy());
    }

    void dropKeepsNothing()
    {
        JobTracker jobs;
        bool delivered = false;
        const quint64 id =
            jobs.start([](const JobContext& job) { return waitForCancel(job); }, [&](bool) { delivered = true; });
        QVERIFY(jobs.pending());
        jobs.drop();
        QVERIFY(!jobs.isCurrent(id));
        QVERIFY(!jobs.pending());
        QTRY_VERIFY_WITH_TIMEOUT(!jobs.busy(), kWaitMs);
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }

    void progressOfASupersededJobIsDropped()
    {
        JobTracker jobs;
        QSignalSpy progress(&jobs, &JobTracker::progressed);
        QSemaphore firstMayReport;
        jobs.start(
            [&](const JobContext& job) {
                firstMayReport.acquire();
                job.progress(1, 99);
                return 0;
            },
            [](int) {});
        bool secondDone = false;
        jobs.start(
            [](const JobContext& job) {
                job.progress(1, 2);
                job.progress(2, 2);
                return 0;
            },
            [&](int) { secondDone = true; });
        QTRY_VERIFY_WITH_TIMEOUT(secondDone, kWaitMs);
        firstMayReport.release();
        QTRY_VERIFY_WITH_TIMEOUT(!jobs.busy(), kWaitMs);
        QCoreApplication::processEvents();
        QCOMPARE(progress.size(), 2);
        QCOMPARE(progress.at(1).at(0).toInt(), 2);
        QCOMPARE(progress.at(1).at(1).toInt(), 2);
    }

    void waitForDoneWaitsForEveryJob()
    {
        JobTracker jobs;
        auto returned = std::make_shared<std::atomic<int>>(0);
        for (int i = 0; i < 2; ++i)
            jobs.start(
                [returned] {
                    QThread::msleep(50);
                    return ++*returned;
                },
                [](int) {});
        jobs.waitForDone();
        QCOMPARE(returned->load(), 2);
    }

    void destructionWhileRunningIsSafe()
    {
        auto* jobs = new JobTracker;
        QSemaphore mayReturn;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        auto returned = std::make_shared<std::atomic<bool>>(false);
        bool delivered = false;
        jobs->start(
            [&mayReturn, sawCancel, returned](const JobContext& job) {
                mayReturn.acquire();
                sawCancel->store(job.cancelled());
                job.progress(1, 1); // reports to a tracker that is gone
                returned->store(true);
                return 1;
            },
            [&](int) { delivered = true; });
        delete jobs;
        mayReturn.release();
        QTRY_VERIFY_WITH_TIMEOUT(returned->load(), kWaitMs);
        QTest::qWait(50); // the result and the progress are posted to a tracker that no longer exists
        QVERIFY(sawCancel->load());
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "test_job_tracker.moc"
