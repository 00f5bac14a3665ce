// SPDX-License-Identifier: MIT
#include "panels/remote_devices_dialog.h"

#include "calibration/save_calibration.h"
#include "panels/remote_hosts_store.h"
#include "remote/remote_commands.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

namespace costscope {

// What the worker hands back: the devices, or the profile a calibration saved, or why neither.
struct RemoteDevicesOutcome {
    RemoteHostDevices host; // a listing: the connection and its devices
    bool calibration = false;
    std::string profile, savedTo; // calibration: the profile's name and where it was saved here
    std::string error;
};

RemoteDevicesDialog::RemoteDevicesDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Remote Devices"));
    m_saved = new QComboBox(this);
    m_saved->setToolTip(tr("Hosts whose devices were listed before; the Run panel offers their devices"));
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setToolTip(tr("Forget this host and stop offering its devices"));
    auto* savedRow = new QHBoxLayout;
    savedRow->addWidget(m_saved, 1);
    savedRow->addWidget(m_remove);
    m_host = new QLineEdit(this);
    m_host->setPlaceholderText(tr("user@host[:port] (your ~/.ssh/config applies)"));
    m_identity = new QLineEdit(this);
    m_identity->setPlaceholderText(tr("optional: ~/.ssh/id_ed25519"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Identity file"), QDir::homePath() + "/.ssh");
        if (!file.isEmpty())
            m_identity->setText(file);
    });
    auto* identityRow = new QHBoxLayout;
    identityRow->addWidget(m_identity);
    identityRow->addWidget(browse);
    m_remoteCli = new QLineEdit(this);
    m_remoteCli->setPlaceholderText(tr("costscope-cli (on the host's PATH)"));
    m_sshOptions = new QLineEdit(this);
    m_sshOptions->setPlaceholderText(tr("optional ssh -o options, K=V separated by spaces"));
    m_remoteCache = new QLineEdit(this);
    m_remoteCache->setPlaceholderText(tr(".cache/costscope/graphs (below the remote home)"));
    m_remoteCache->setToolTip(tr("Where the host keeps the graphs runs copy there, each named by its content"));
    auto* form = new QFormLayout;
    form->addRow(tr("Saved hosts:"), savedRow);
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("Identity:"), identityRow);
    form->addRow(tr("Remote CLI:"), m_remoteCli);
    form->addRow(tr("SSH options:"), m_sshOptions);
    form->addRow(tr("Remote cache:"), m_remoteCache);
    m_devices = new QListWidget(this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_list = buttons->addButton(tr("List Devices"), QDialogButtonBox::ActionRole);
    m_calibrateButton = buttons->addButton(tr("Calibrate Selected"), QDialogButtonBox::ActionRole);
    m_calibrateButton->setToolTip(tr("A quick calibration on the host, kept here as host/calibrated-<backend>"));
    m_calibrateButton->setEnabled(false);
    m_cancel = buttons->addButton(tr("Cancel"), QDialogButtonBox::ActionRole);
    m_cancel->setEnabled(false);
    connect(m_calibrateButton, &QPushButton::clicked, this, &RemoteDevicesDialog::calibrateSelected);
    connect(m_devices, &QListWidget::currentRowChanged, this,
            [this](int row) { m_calibrateButton->setEnabled(row >= 0 && !m_cancel->isEnabled()); });
    connect(m_list, &QPushButton::clicked, this, &RemoteDevicesDialog::listDevices);
    connect(m_cancel, &QPushButton::clicked, this, &RemoteDevicesDialog::cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_saved, &QComboBox::activated, this, &RemoteDevicesDialog::showSavedHost);
    connect(m_remove, &QPushButton::clicked, this, &RemoteDevicesDialog::removeSelectedHost);
    fillSavedHosts();
    if (m_saved->count() > 0) // the last host used first
        showSavedHost(0);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_devices);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(560, 380);
}

RemoteDevicesDialog::~RemoteDevicesDialog()
{
    cancel();
    m_job.waitForDone(); // the ssh child is killed within a tenth of a second of the cancel
}

std::optional<RemoteCliOptions> RemoteDevicesDialog::connectionOptions()
{
    auto target = parseSshTarget(m_host->text().trimmed().toStdString());
    if (!target) {
        m_status->setText(QString::fromStdString(target.error().message));
        return std::nullopt;
    }
    RemoteCliOptions options;
    options.target = *target;
    options.target.identityFile = m_identity->text().trimmed().toStdString();
    for (const QString& o : m_sshOptions->text().split(' ', Qt::SkipEmptyParts))
        options.target.options.push_back(o.toStdString());
    if (!m_remoteCli->text().trimmed().isEmpty())
        options.cli = m_remoteCli->text().trimmed().toStdString();
    if (!m_remoteCache->text().trimmed().isEmpty())
        options.cacheDir = m_remoteCache->text().trimmed().toStdString();
    QPointer<QLabel> status = m_status;
    options.onProgress = [status](const std::string& line) {
        QMetaObject::invokeMethod(status, [status, text = QString::fromStdString(line)] {
            if (status)
                status->setText(text);
        });
    };
    return options;
}

void RemoteDevicesDialog::fillSavedHosts()
{
    m_saved->clear();
    for (const RemoteHostDevices& h : savedRemoteHosts())
        m_saved->addItem(QString::fromStdString(remoteAddress(h.options.target)),
                         QString::fromStdString(h.options.target.host));
    m_saved->setEnabled(m_saved->count() > 0);
    m_remove->setEnabled(m_saved->count() > 0);
}

void RemoteDevicesDialog::showSavedHost(int row)
{
    const std::string name = m_saved->itemData(row).toString().toStdString();
    for (const RemoteHostDevices& h : savedRemoteHosts()) {
        if (h.options.target.host != name)
            continue;
        QStringList sshOptions;
        for (const std::string& o : h.options.target.options)
            sshOptions << QString::fromStdString(o);
        m_host->setText(QString::fromStdString(remoteAddress(h.options.target)));
        m_identity->setText(QString::fromStdString(h.options.target.identityFile));
        m_remoteCli->setText(QString::fromStdString(h.options.cli));
        m_sshOptions->setText(sshOptions.join(' '));
        m_remoteCache->setText(QString::fromStdString(h.options.cacheDir));
    }
}

void RemoteDevicesDialog::removeSelectedHost()
{
    if (m_saved->currentIndex() < 0)
        return;
    const QString name = m_saved->currentData().toString();
    removeRemoteHost(name.toStdString());
    fillSavedHosts();
    m_status->setText(tr("Removed %1.").arg(name));
    emit hostRemoved(name);
}

void RemoteDevicesDialog::setBusy(bool busy)
{
    m_list->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    m_calibrateButton->setEnabled(!busy && m_devices->currentRow() >= 0);
}

void RemoteDevicesDialog::listDevices()
{
    auto options = connectionOptions();
    if (!options)
        return;
    m_devices->clear();
    m_status->setText(tr("Connecting to %1…").arg(m_host->text().trimmed()));
    setBusy(true);
    m_job.start(
        [options = *options](const JobContext& job) mutable {
            options.cancel = job.cancelFlag();
            RemoteCli remote(options);
            auto devices = remoteDevices(remote);
            auto outcome = std::make_shared<RemoteDevicesOutcome>();
            options.cancel = nullptr; // the runs that use the connection later bring their own
            options.onProgress = nullptr;
            outcome->host.options = options;
            if (devices)
                outcome->host.devices = std::move(*devices);
            else
                outcome->error = devices.error().message;
            return std::shared_ptr<const RemoteDevicesOutcome>(std::move(outcome));
        },
        [this](std::shared_ptr<const RemoteDevicesOutcome> outcome) { showOutcome(*outcome); });
}

void RemoteDevicesDialog::calibrateSelected()
{
    const QListWidgetItem* item = m_devices->currentItem();
    auto options = item ? connectionOptions() : std::nullopt;
    if (!options)
        return;
    const std::string backend = item->data(kBackendRole).toString().toStdString();
    const auto device = static_cast<DeviceIndex>(item->data(kDeviceIndexRole).toInt());
    const std::string name = remoteProfileName(options->target.host, backend);
    m_status->setText(
        tr("Calibrating %1 on %2 (quick)…").arg(item->text().section(' ', 0, 0), m_host->text().trimmed()));
    setBusy(true);
    std::vector<std::string> predictorArgs;
    if (m_predictorBudgetS > 0)
        predictorArgs = {"--predictor-budget", std::to_string(m_predictorBudgetS)};
    m_job.start(
        [options = *options, backend, device, name, predictorArgs](const JobContext& job) mutable {
            options.cancel = job.cancelFlag();
            RemoteCli remote(options);
            auto outcome = std::make_shared<RemoteDevicesOutcome>();
            outcome->calibration = true;
            auto profile = calibrateRemotely(remote, backend, device, true, name, predictorArgs);
            auto saved = profile ? saveCalibratedProfile(*profile) : Result<SavedProfile>(profile.error());
            if (saved) {
                outcome->profile = saved->profile.name;
                outcome->savedTo = saved->path;
            } else {
                outcome->error = saved.error().message;
            }
            return std::shared_ptr<const RemoteDevicesOutcome>(std::move(outcome));
        },
        [this](std::shared_ptr<const RemoteDevicesOutcome> outcome) { showOutcome(*outcome); });
}

void RemoteDevicesDialog::cancel()
{
    m_job.cancel();
}

void RemoteDevicesDialog::showOutcome(const RemoteDevicesOutcome& outcome)
{
    setBusy(false);
    if (outcome.calibration) {
        const QString name = QString::fromStdString(outcome.profile);
        m_status->setText(outcome.error.empty() ? tr("Saved profile %1 to %2: the toolbar's device list offers it now.")
                                                      .arg(name, QString::fromStdString(outcome.savedTo))
                                                : QString::fromStdString(outcome.error));
        if (outcome.error.empty())
            emit profileSaved(name);
        emit finished(outcome.error.empty());
        return;
    }
    for (const RemoteDevice& d : outcome.host.devices) {
        m_devices->addItem(QString::fromStdString(d.id + "  " + d.info.name + "  "
                                                  + std::to_string(d.info.memoryBytes / (1024 * 1024)) + " MiB"));
        m_devices->item(m_devices->count() - 1)->setData(kBackendRole, QString::fromStdString(d.info.backend));
        m_devices->item(m_devices->count() - 1)->setData(kDeviceIndexRole, d.info.index);
    }
    m_status->setText(outcome.error.empty() ? tr("%n device(s), offered in the Run panel too", nullptr,
                                                 static_cast<int>(outcome.host.devices.size()))
                                            : QString::fromStdString(outcome.error));
    if (outcome.error.empty()) {
        saveRemoteHost(outcome.host);
        fillSavedHosts();
        m_saved->setCurrentIndex(m_saved->findData(QString::fromStdString(outcome.host.options.target.host)));
        emit devicesListed(outcome.host);
    }
    emit finished(outcome.error.empty());
}

} // namespace costscope
