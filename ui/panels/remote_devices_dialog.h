// SPDX-License-Identifier: MIT
#pragma once

#include "jobs/job_tracker.h"
#include <QDialog>

#include "remote/remote_commands.h"

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace costscope {

struct RemoteDevicesOutcome;

// File → Remote Devices…: a host reached over ssh (user@host[:port], an identity file, the remote CLI's path) and
// the devices its costscope-cli lists, named host/cpu, host/cuda:0. A host whose listing succeeded is kept across
// restarts (remote_hosts_store.h) until removed here. "Calibrate Selected" calibrates one there (quick)
// and keeps the profile here as host/calibrated-<backend>, which the toolbar's device list, sweeps and runs then
// offer like a local one. A listing also offers the host's devices in the Run panel (devicesListed).
// Both run off the GUI thread through engine/remote (the use cases `costscope-cli devices
// --remote` and `calibrate --remote` call); Cancel kills the ssh child.
class RemoteDevicesDialog : public QDialog {
    Q_OBJECT
public:
    explicit RemoteDevicesDialog(QWidget* parent = nullptr);
    ~RemoteDevicesDialog() override;

    QLineEdit* hostEdit() const { return m_host; }
    QLineEdit* identityEdit() const { return m_identity; }
    QLineEdit* remoteCliEdit() const { return m_remoteCli; }
    QLineEdit* sshOptionsEdit() const { return m_sshOptions; }
    QLineEdit* remoteCacheEdit() const { return m_remoteCache; }
    QListWidget* deviceList() const { return m_devices; }
    QLabel* statusLabel() const { return m_status; }
    QPushButton* calibrateButton() const { return m_calibrateButton; }
    // The hosts kept from earlier listings (remote_hosts_store.h): choosing one fills the fields; Remove forgets it.
    QComboBox* savedHosts() const { return m_saved; }
    QPushButton* removeButton() const { return m_remove; }
    // Seconds of measuring for the calibration's kernel predictors (calibrate --predictor-budget); 0, the default:
    // the remote calibrate's own. Tests set a small one.
    void setPredictorBudgetS(double seconds) { m_predictorBudgetS = seconds; }
    // deviceList() items carry the backend and the device index in these roles.
    static constexpr int kBackendRole = Qt::UserRole;
    static constexpr int kDeviceIndexRole = Qt::UserRole + 1;

public slots:
    void listDevices();
    void calibrateSelected();
    void cancel();
    // Forgets the saved host chosen in savedHosts(), here and in the Run panel (hostRemoved).
    void removeSelectedHost();

signals:
    void finished(bool ok);
    // A remote calibration was saved here as the user profile `name`.
    void profileSaved(const QString& name);
    // The host's devices were listed: the Run panel offers them beside this machine's.
    void devicesListed(const RemoteHostDevices& host);
    // A saved host was removed: the Run panel stops offering its devices.
    void hostRemoved(const QString& host);

private:
    void showOutcome(const RemoteDevicesOutcome& outcome);
    std::optional<RemoteCliOptions> connectionOptions();
    void setBusy(bool busy);
    void fillSavedHosts();
    void showSavedHost(int row);

    QComboBox* m_saved = nullptr;
    QPushButton* m_remove = nullptr;
    QLineEdit* m_host = nullptr;
    QLineEdit* m_identity = nullptr;
    QLineEdit* m_remoteCli = nullptr;
    QLineEdit* m_sshOptions = nullptr;
    QLineEdit* m_remoteCache = nullptr;
    QListWidget* m_devices = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_list = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_calibrateButton = nullptr;
    JobTracker m_job;
    double m_predictorBudgetS = 0;
};

} // namespace costscope
