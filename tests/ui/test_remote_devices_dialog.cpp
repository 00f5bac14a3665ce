// SPDX-License-Identifier: MIT
// File → Remote Devices…: lists the devices of an OpenSSH server on 127.0.0.1 (tests/remote/loopback_sshd.sh) with
// this build's costscope-cli as the remote one, calibrates one of them into a local profile named for the host that
// the toolbar's device list then offers, and says why when the host is unreachable. The listed devices join the Run
// panel's: a run there comes back over ssh into the per-node views, priced under the host's calibration, fits that
// calibration, and stops on Cancel with nothing left running on the host.
#include "charts/sweep_panel.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "panels/profile_tools.h"
#include "panels/remote_devices_dialog.h"
#include "panels/run_error_table.h"
#include "panels/run_panel.h"
#include "test_paths.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <pwd.h>
#include <unistd.h>

using namespace costscope;
using namespace costscope::test;

class TestRemoteDevicesDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void listsTheHostsDevices();
    void calibratesASelectedDeviceIntoALocalProfile();
    void runPanelRunsOnAListedDevice();
    void cancelStopsARemoteRun();
    void saysWhyAnUnreachableHostFails();

private:
    void fill(RemoteDevicesDialog& d, const QString& port) const;
    // `w` showing cnn, its Run panel offering the loopback host's devices (File → Remote Devices…, List) and the
    // host's first device selected; nullptr when any of it failed.
    RunPanel* runPanelOnHost(MainWindow& w) const;
    // Whether a process runs a graph of this test's remote cache (a remote run).
    bool remoteRunAlive() const;
    QTemporaryDir m_tmp;
    QString m_port, m_skip;
};

void TestRemoteDevicesDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear(); // the window's saved layout and views
    qputenv("HOME", m_tmp.filePath("home").toUtf8());
    qputenv("XDG_DATA_HOME", m_tmp.filePath("home/data").toUtf8());
    QDir().mkpath(m_tmp.filePath("home"));
    QProcess start;
    start.start("bash", {sourcePath("tests/remote/loopback_sshd.sh"), "start", m_tmp.filePath("sshd")});
    if (!start.waitForFinished(30000) || start.exitCode() != 0) {
        m_skip = "no OpenSSH server could be started on 127.0.0.1: " + QString::fromUtf8(start.readAllStandardError());
        return;
    }
    QFile port(m_tmp.filePath("sshd/port"));
    QVERIFY(port.open(QIODevice::ReadOnly));
    m_port = QString::fromUtf8(port.readAll()).trimmed();
}

void TestRemoteDevicesDialog::cleanupTestCase()
{
    if (!m_port.isEmpty())
        QProcess::execute("bash", {sourcePath("tests/remote/loopback_sshd.sh"), "stop", m_tmp.filePath("sshd")});
}

void TestRemoteDevicesDialog::fill(RemoteDevicesDialog& d, const QString& port) const
{
    const passwd* pw = ::getpwuid(::getuid());
    d.hostEdit()->setText(QString::fromLocal8Bit(pw ? pw->pw_name : "root") + "@127.0.0.1:" + port);
    d.identityEdit()->setText(m_tmp.filePath("sshd/client_key"));
    d.remoteCliEdit()->setText(cliPath());
    // ControlPersist=no: the master connection ends with the dialog, and the server can stop.
    d.sshOptionsEdit()->setText("StrictHostKeyChecking=no UserKnownHostsFile=" + m_tmp.filePath("sshd/known_hosts")
                                + " ControlPersist=no SetEnv=XDG_DATA_HOME=" + m_tmp.filePath("remote-data"));
    d.remoteCacheEdit()->setText(m_tmp.filePath("remote-cache"));
}

RunPanel* TestRemoteDevicesDialog::runPanelOnHost(MainWindow& w) const
{
    QSignalSpy loaded(&w, &MainWindow::graphLoaded);
    w.openFile(sourcePath("resources/examples/cnn.hir.json"));
    auto* panel = w.findChild<RunPanel*>();
    if (!loaded.wait(60000) || !panel)
        return nullptr;
    QAction* action = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == "Remote &Devices…")
            action = a;
    if (!action)
        return nullptr;
    bool listed = false;
    // The menu's dialog is modal: it is filled in and listed from inside its own event loop.
    QTimer::singleShot(0, &w, [&] {
        auto* d = w.findChild<RemoteDevicesDialog*>();
        if (!d)
            return;
        fill(*d, m_port);
        QSignalSpy done(d, &RemoteDevicesDialog::finished);
        d->listDevices();
        listed = done.wait(60000) && done.first().first().toBool();
        d->reject();
    });
    action->trigger();
    QComboBox* devices = panel->deviceSelector();
    for (int i = 0; listed && i < devices->count(); ++i)
        if (devices->itemData(i, RunPanel::kRemoteHostRole).toString() == "127.0.0.1") {
            devices->setCurrentIndex(i);
            return devices->itemText(i).startsWith("127.0.0.1/cpu ") ? panel : nullptr;
        }
    return nullptr;
}

bool TestRemoteDevicesDialog::remoteRunAlive() const
{
    const QByteArray cache = m_tmp.filePath("remote-cache").toUtf8();
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
        QFile cmdline("/proc/" + pid + "/cmdline");
        if (cmdline.open(QIODevice::ReadOnly)) {
            const QByteArray words = cmdline.readAll();
            if (words.startsWith(cliPath().toUtf8()) && words.contains(cache))
                return true;
        }
    }
    return false;
}

void TestRemoteDevicesDialog::listsTheHostsDevices()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    RemoteDevicesDialog d;
    fill(d, m_port);
    QSignalSpy done(&d, &RemoteDevicesDialog::finished);
    d.listDevices();
    QVERIFY(done.wait(60000));
    QCOMPARE(done.first().first().toBool(), true);
    QVERIFY(d.deviceList()->count() >= 1);
    QVERIFY2(d.deviceList()->item(0)->text().startsWith("127.0.0.1/cpu  "),
             qPrintable(d.deviceList()->item(0)->text()));
}

void TestRemoteDevicesDialog::calibratesASelectedDeviceIntoALocalProfile()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    RemoteDevicesDialog d;
    fill(d, m_port);
    QSignalSpy done(&d, &RemoteDevicesDialog::finished);
    QVERIFY(!d.calibrateButton()->isEnabled()); // nothing listed, nothing selected
    d.listDevices();
    QVERIFY(done.wait(60000));
    QCOMPARE(d.deviceList()->item(0)->data(RemoteDevicesDialog::kBackendRole).toString(), QString("cpu"));
    d.deviceList()->setCurrentRow(0);
    QVERIFY(d.calibrateButton()->isEnabled());
    QSignalSpy saved(&d, &RemoteDevicesDialog::profileSaved);
    d.setPredictorBudgetS(2); // the product's 25 s of predictor measuring checks nothing more here
    d.calibrateButton()->click();
    QVERIFY(d.statusLabel()->text().startsWith("Calibrating 127.0.0.1/cpu") || done.size() > 1);
    QVERIFY(done.wait(300000));
    QVERIFY2(done.last().first().toBool(), qPrintable(d.statusLabel()->text()));
    QCOMPARE(saved.size(), 1);
    QCOMPARE(saved.first().first().toString(), QString("127.0.0.1/calibrated-cpu"));
    QVERIFY2(d.statusLabel()->text().contains(m_tmp.filePath("home/data")), qPrintable(d.statusLabel()->text()));
    reloadProfileLibrary();
    QVERIFY(costDeviceNames().contains("127.0.0.1/calibrated-cpu"));
}

void TestRemoteDevicesDialog::runPanelRunsOnAListedDevice()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    MainWindow w;
    RunPanel* panel = runPanelOnHost(w);
    QVERIFY(panel);
    panel->runsSpin()->setValue(3);
    QStringList shown; // the status line while it runs: the remote's progress
    QTimer sample;
    connect(&sample, &QTimer::timeout, this, [&] { shown << panel->status()->text(); });
    sample.start(5);
    QSignalSpy finished(panel, &RunPanel::finished);
    panel->runButton()->click();
    QVERIFY(panel->cancelButton()->isEnabled());
    QVERIFY(finished.wait(120000));
    sample.stop();
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel->status()->text()));
    QVERIFY2(!shown.filter("127.0.0.1: copying graph.hir.json").isEmpty(), qPrintable(shown.join('\n')));
    const auto run = panel->lastRun();
    QVERIFY(run && !run->nodes.empty() && run->whole.runs == 3);
    QVERIFY2(QString::fromStdString(run->deviceName).endsWith(" on 127.0.0.1"), run->deviceName.c_str());
    // calibratesASelectedDeviceIntoALocalProfile kept the host's calibration here: the run is priced under it.
    QCOMPARE(QString::fromStdString(run->costscopeProfile), QString("127.0.0.1/calibrated-cpu"));
    QCOMPARE(panel->errorTable()->nodeTable()->rowCount(), static_cast<int>(run->nodes.size()));
    QVERIFY(
        std::all_of(run->nodes.begin(), run->nodes.end(), [](const NodeComparison& n) { return n.measuredNs > 0; }));

    // The sweep charts price the host's calibration like a local one: beside a preset, and as the focus device.
    auto* sweep = w.findChild<SweepPanel*>();
    QVERIFY(sweep);
    sweep->devicesEdit()->setText("127.0.0.1/calibrated-cpu, generic-x86-16core");
    sweep->setFocusDevice("127.0.0.1/calibrated-cpu");
    QSignalSpy applied(sweep, &SweepPanel::resultsApplied);
    QVERIFY(sweep->recompute() != 0);
    QVERIFY(applied.wait(60000) || !applied.isEmpty());
    QVERIFY2(sweep->data().error.empty(), sweep->data().error.c_str());
    QCOMPARE(sweep->data().deviceLabels.front(), std::string("127.0.0.1/calibrated-cpu"));
    QCOMPARE(sweep->data().focusLabel, std::string("127.0.0.1/calibrated-cpu"));
    for (const auto& totals : sweep->data().sweep.totalNs)
        QVERIFY(totals.front() > 0 && totals.front() != totals.back()); // its own numbers, not the preset's

    // Fit: the host's runs go into the host's calibration; a remote device is calibrated in its dialog.
    ProfileTools* tools = panel->profileTools();
    QVERIFY(!tools->calibrateButton()->isEnabled());
    QVERIFY(tools->fitButton()->isEnabled());
    QSignalSpy fitted(tools, &ProfileTools::fitted);
    tools->fitButton()->click();
    QVERIFY(fitted.wait(60000));
    QVERIFY2(fitted.first().first().toBool(), qPrintable(tools->status()->text()));
    QVERIFY2(tools->status()->text().contains("127.0.0.1/calibrated-cpu"), qPrintable(tools->status()->text()));
}

void TestRemoteDevicesDialog::cancelStopsARemoteRun()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    MainWindow w;
    RunPanel* panel = runPanelOnHost(w);
    QVERIFY(panel);
    panel->runsSpin()->setValue(1000); // some ten seconds of runs, at least
    QSignalSpy finished(panel, &RunPanel::finished);
    panel->runButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(remoteRunAlive(), 30000);
    QElapsedTimer cancelled;
    cancelled.start();
    panel->cancelButton()->click();
    QVERIFY2(finished.wait(15000), "Cancel did not end the remote run");
    QVERIFY(cancelled.elapsed() < 5000);
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(panel->status()->text().contains("cancelled"), qPrintable(panel->status()->text()));
    QVERIFY(panel->runButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!remoteRunAlive(), 5000); // the watcher on the host stopped it with the connection
}

void TestRemoteDevicesDialog::saysWhyAnUnreachableHostFails()
{
    RemoteDevicesDialog d;
    fill(d, "1");
    QSignalSpy done(&d, &RemoteDevicesDialog::finished);
    d.listDevices();
    QVERIFY(done.wait(30000));
    QCOMPARE(done.first().first().toBool(), false);
    QCOMPARE(d.deviceList()->count(), 0);
    QVERIFY2(d.statusLabel()->text().contains("unreachable"), qPrintable(d.statusLabel()->text()));
}

QTEST_MAIN(TestRemoteDevicesDialog)
#include "test_remote_devices_dialog.moc"
