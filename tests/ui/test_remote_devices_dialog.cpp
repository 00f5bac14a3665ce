// SPDX-License-Identifier: MIT
// File → Remote Devices…: lists the devices of an OpenSSH server on 127.0.0.1 (tests/remote/loopback_sshd.sh) with
// this build's costscope-cli as the remote one, calibrates one of them into a local profile named for the host that
// the toolbar's device list then offers, and says why when the host is unreachable. The listed devices join the Run
// panel's: a run there comes back over ssh into the per-node views, priced under the host's calibration, fits that
// calibration, and stops on Cancel with nothing left running on the host.
#include "charts/sweep_panel.h"
#include "jobs/cost_job.h"
#include "loopback_ssh.h"
#include "main_window.h"
#include "panels/evaluation_view.h"
#include "panels/profile_tools.h"
#include "panels/remote_devices_dialog.h"
#include "panels/run_error_table.h"
#include "panels/run_panel.h"
#include "test_paths.h"
#include "usecases/remote_run_and_compare.h"
#if COSTSCOPE_HAVE_ONNX
#include "onnx_writer.h"
#endif

#include <QAction>
#include <QCheckBox>
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
    void keepsListedHostsAcrossRestarts();
    void calibratesASelectedDeviceIntoALocalProfile();
    void runPanelRunsOnAListedDevice();
    void evaluatesARemoteDevice();
    void runSendsTheGraphWithItsWeights();
    void cancelStopsARemoteRun();
    void saysWhyAnUnreachableHostFails();

private:
    // `cli`: the remote CLI (default: this build's).
    void fill(RemoteDevicesDialog& d, const QString& port, const QString& cli = {}) const;
    // `w` showing cnn, its Run panel offering the loopback host's devices (File → Remote Devices…, List) and the
    // host's first device selected; nullptr when any of it failed.
    // `file`: the graph to open (default: cnn).
    RunPanel* runPanelOnHost(MainWindow& w, const QString& cli = {}, const QString& file = {}) const;
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
    if (m_port.isEmpty())
        return;
    killRemoteWorkers(m_tmp.filePath("remote-data")); // the host's workers the runs started
    QProcess::execute("bash", {sourcePath("tests/remote/loopback_sshd.sh"), "stop", m_tmp.filePath("sshd")});
}

void TestRemoteDevicesDialog::fill(RemoteDevicesDialog& d, const QString& port, const QString& cli) const
{
    const passwd* pw = ::getpwuid(::getuid());
    d.hostEdit()->setText(QString::fromLocal8Bit(pw ? pw->pw_name : "root") + "@127.0.0.1:" + port);
    d.identityEdit()->setText(m_tmp.filePath("sshd/client_key"));
    d.remoteCliEdit()->setText(cli.isEmpty() ? cliPath() : cli);
    // ControlPersist=no: the master connection ends with the dialog, and the server can stop.
    d.sshOptionsEdit()->setText("StrictHostKeyChecking=no UserKnownHostsFile=" + m_tmp.filePath("sshd/known_hosts")
                                + " ControlPersist=no SetEnv=XDG_DATA_HOME=" + m_tmp.filePath("remote-data"));
    d.remoteCacheEdit()->setText(m_tmp.filePath("remote-cache"));
}

RunPanel* TestRemoteDevicesDialog::runPanelOnHost(MainWindow& w, const QString& cli, const QString& file) const
{
    QSignalSpy loaded(&w, &MainWindow::graphLoaded);
    w.openFile(file.isEmpty() ? sourcePath("resources/examples/cnn.hir.json") : file);
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
        fill(*d, m_port, cli);
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

void TestRemoteDevicesDialog::keepsListedHostsAcrossRestarts()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QString address;
    {
        RemoteDevicesDialog d;
        fill(d, m_port);
        address = d.hostEdit()->text();
        QSignalSpy done(&d, &RemoteDevicesDialog::finished);
        d.listDevices();
        QVERIFY(done.wait(60000) && done.first().first().toBool());
    }
    const auto hostItems = [](const RunPanel& panel) {
        QStringList items;
        for (int i = 0; i < panel.deviceSelector()->count(); ++i)
            if (panel.deviceSelector()->itemData(i, RunPanel::kRemoteHostRole).toString() == "127.0.0.1")
                items << panel.deviceSelector()->itemText(i);
        return items;
    };
    // A new window, as after a restart: its Run panel offers the host's devices before any connection, and its
    // dialog the host, filled in; Remove forgets it there and in the Run panel.
    MainWindow w;
    auto* panel = w.findChild<RunPanel*>();
    QVERIFY(panel);
    QVERIFY2(!hostItems(*panel).isEmpty() && hostItems(*panel).first().startsWith("127.0.0.1/cpu "),
             qPrintable(hostItems(*panel).join(", ")));
    QAction* action = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == "Remote &Devices…")
            action = a;
    QVERIFY(action);
    QStringList seen;
    QTimer::singleShot(0, &w, [&] {
        auto* d = w.findChild<RemoteDevicesDialog*>();
        if (!d)
            return;
        seen << d->savedHosts()->currentText() << d->hostEdit()->text() << d->identityEdit()->text()
             << d->remoteCacheEdit()->text();
        d->removeButton()->click();
        seen << QString::number(d->savedHosts()->count());
        d->reject();
    });
    action->trigger();
    QCOMPARE(seen,
             QStringList({address, address, m_tmp.filePath("sshd/client_key"), m_tmp.filePath("remote-cache"), "0"}));
    QVERIFY(hostItems(*panel).isEmpty());
    RemoteDevicesDialog again;
    QCOMPARE(again.savedHosts()->count(), 0);
    QVERIFY(!again.removeButton()->isEnabled());
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
    QVERIFY2(!shown.filter("127.0.0.1: copying cnn.hir.json").isEmpty(), qPrintable(shown.join('\n')));
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

// The Calibration tab's evaluation on the host's device: evaluate runs there, held to the profile kept here
// (calibratesASelectedDeviceIntoALocalProfile's), which travels into the host's cache; the report fills the tables.
// The remote CLI is wrapped to log evaluate's arguments and to measure less (no sampler, small graphs), so that the
// test stays short; the rest is the real evaluation.
void TestRemoteDevicesDialog::evaluatesARemoteDevice()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString cli = m_tmp.filePath("evaluating-costscope-cli"), log = m_tmp.filePath("evaluate-args.log");
    {
        QFile f(cli);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nif [ \"$1\" = evaluate ]; then printf '%s\\n' \"$@\" > '" + log.toUtf8() + "'; exec '"
                + cliPath().toUtf8() + "' \"$@\" --no-sampler --max-gflop 0.1 --budget 0.02; fi\nexec '"
                + cliPath().toUtf8() + "' \"$@\"\n");
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    }
    MainWindow w;
    RunPanel* panel = runPanelOnHost(w, cli);
    QVERIFY(panel);
    EvaluationView* view = panel->profileTools()->evaluation();
    QVERIFY(view->isEnabled() && view->evaluateButton()->isEnabled());
    view->quickCheck()->setChecked(true);
    view->familiesEdit()->setText("mlp, resnet");
    QSignalSpy evaluated(view, &EvaluationView::evaluated);
    view->evaluateButton()->click();
    QVERIFY(view->busy());
    QVERIFY(evaluated.wait(180000));
    QVERIFY2(evaluated.first().first().toBool(), qPrintable(view->status()->text()));
    QCOMPARE(view->accuracyTable()->rowCount(), 4); // RLX parity, analytic, class-corrected, learned
    QCOMPARE(view->accuracyTable()->item(0, 0)->text(), QString("rlx parity"));
    QVERIFY(view->accuracyTable()->item(3, 1)->data(Qt::UserRole).toInt() >= 2);
    QVERIFY2(view->status()->text().contains("127.0.0.1/cpu (profile 127.0.0.1/calibrated-cpu)")
                 && view->status()->text().contains("mlp, resnet"),
             qPrintable(view->status()->text()));
    QFile argsFile(log);
    QVERIFY(argsFile.open(QIODevice::ReadOnly));
    const QStringList args = QString::fromUtf8(argsFile.readAll()).split('\n', Qt::SkipEmptyParts);
    for (const QStringList& pair :
         {QStringList{"--backend", "cpu"}, QStringList{"--families", "mlp,resnet"}, QStringList{"--batches", "1"}})
        QVERIFY2(args.indexOf(pair[0]) >= 0 && args.value(args.indexOf(pair[0]) + 1) == pair[1],
                 qPrintable(args.join(' ')));
    // The profile it was held to is the one kept here, copied into the host's cache by its content.
    const QString remoteProfile = args.value(args.indexOf("--profile") + 1);
    QVERIFY2(remoteProfile.startsWith(m_tmp.filePath("remote-cache")), qPrintable(args.join(' ')));
    QFile sent(remoteProfile);
    QVERIFY(sent.open(QIODevice::ReadOnly));
    QVERIFY(sent.readAll().contains("\"127.0.0.1/calibrated-cpu\""));
}

// A remote run computes what a run here computes: the graph's file travels with its weights (an ONNX model's
// initializers), and an edited graph, which is no longer its file's, travels with them as Constants. Synthesized
// weights would give other outputs.
void TestRemoteDevicesDialog::runSendsTheGraphWithItsWeights()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
#if !COSTSCOPE_HAVE_ONNX
    QSKIP("built without ONNX import: no model with stored weights");
#else
    const QString model = m_tmp.filePath("weights/scaled.onnx");
    QDir().mkpath(m_tmp.filePath("weights"));
    OnnxModel scaled(13);
    scaled.input("x", {64});
    scaled.output("y", {64});
    scaled.floats("w", std::vector<float>(64, 3.0f)); // over 16 elements: a Param with its values
    scaled.node("Mul", {"x", "w"}, {"y"});
    scaled.save(model);
    MainWindow w;
    RunPanel* panel = runPanelOnHost(w, {}, model);
    QVERIFY(panel);
    panel->runsSpin()->setValue(1);
    const auto runOnce = [&]() -> std::shared_ptr<const RunComparison> {
        QSignalSpy finished(panel, &RunPanel::finished);
        panel->runButton()->click();
        if (!finished.wait(60000) || !finished.first().first().toBool())
            return nullptr;
        return panel->lastRun();
    };
    const auto remote = runOnce();
    QVERIFY2(remote, qPrintable(panel->status()->text()));
    QComboBox* devices = panel->deviceSelector();
    for (int i = 0; i < devices->count(); ++i)
        if (!devices->itemData(i, RunPanel::kRemoteHostRole).isValid()
            && devices->itemData(i, RunPanel::kBackendRole).toString() == "cpu") {
            devices->setCurrentIndex(i);
            break;
        }
    const auto local = runOnce();
    QVERIFY2(local, qPrintable(panel->status()->text()));
    QVERIFY(QString::fromStdString(remote->deviceName).endsWith(" on 127.0.0.1"));
    QVERIFY(!QString::fromStdString(local->deviceName).endsWith(" on 127.0.0.1"));
    // The inputs are arange(64)/64: 3 × 31.5 with the stored weights.
    QCOMPARE(local->outputSums, std::vector<double>{94.5});
    QCOMPARE(remote->outputSums, local->outputSums);

    const passwd* pw = ::getpwuid(::getuid());
    auto target = parseSshTarget(QString("%1@127.0.0.1:%2").arg(pw ? pw->pw_name : "root", m_port).toStdString());
    QVERIFY(target);
    RemoteRunRequest edited{{local->graph, {}, "cpu", 0, 1}, {}, ""}; // no file: the graph as HIR JSON
    edited.remote.target = *target;
    edited.remote.target.identityFile = m_tmp.filePath("sshd/client_key").toStdString();
    edited.remote.target.options = {"StrictHostKeyChecking=no",
                                    "UserKnownHostsFile=" + m_tmp.filePath("sshd/known_hosts").toStdString(),
                                    "ControlPersist=no"};
    edited.remote.cli = cliPath().toStdString();
    edited.remote.cacheDir = m_tmp.filePath("remote-cache").toStdString();
    auto sent = runRemotelyAndCompare(edited, nullptr, {});
    QVERIFY2(sent, sent ? "" : sent.error().message.c_str());
    QCOMPARE(sent->outputSums, local->outputSums);
    QCOMPARE(sent->nodes.size(), local->nodes.size());
#endif
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
