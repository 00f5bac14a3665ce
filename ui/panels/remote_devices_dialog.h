// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QFutureWatcher>

#include <atomic>
#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace costscope {

struct RemoteDevicesOutcome;

// File → Remote Devices…: a host reached over ssh (user@host[:port], an identity file, the remote CLI's path) and
// the devices its costscope-cli lists, named host/cpu, host/cuda:0. The listing runs off the GUI thread through
// engine/remote (the use case `costscope-cli devices --remote` calls); Cancel kills the ssh child.
class RemoteDevicesDialog : public QDialog {
    Q_OBJECT
public:
    explicit RemoteDevicesDialog(QWidget* parent = nullptr);
    ~RemoteDevicesDialog() override;

    QLineEdit* hostEdit() const { return m_host; }
    QLineEdit* identityEdit() const { return m_identity; }
    QLineEdit* remoteCliEdit() const { return m_remoteCli; }
    QLineEdit* sshOptionsEdit() const { return m_sshOptions; }
    QListWidget* deviceList() const { return m_devices; }
    QLabel* statusLabel() const { return m_status; }

public slots:
    void listDevices();
    void cancel();

signals:
    void finished(bool ok);

private:
    void showOutcome();

    QLineEdit* m_host = nullptr;
    QLineEdit* m_identity = nullptr;
    QLineEdit* m_remoteCli = nullptr;
    QLineEdit* m_sshOptions = nullptr;
    QListWidget* m_devices = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_list = nullptr;
    QPushButton* m_cancel = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QFutureWatcher<std::shared_ptr<const RemoteDevicesOutcome>> m_watcher;
};

} // namespace costscope
