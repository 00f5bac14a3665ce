// SPDX-License-Identifier: MIT
// File → Remote Devices…: lists the devices of an OpenSSH server on 127.0.0.1 (tests/remote/loopback_sshd.sh) with
// this build's costscope-cli as the remote one, calibrates one of them into a local profile named for the host that
// the toolbar's device list then offers, and says why when the host is unreachable.
#include "jobs/cost_job.h"
#include "panels/remote_devices_dialog.h"
#include "test_paths.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

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
    void saysWhyAnUnreachableHostFails();

private:
    void fill(RemoteDevicesDialog& d, const QString& port) const;
    QTemporaryDir m_tmp;
    QString m_port, m_skip;
};

void TestRemoteDevicesDialog::initTestCase()
{
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
