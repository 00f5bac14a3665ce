// SPDX-License-Identifier: MIT
#include "report_devices_dialog.h"

#include "jobs/cost_job.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace costscope {

namespace {
const char* const kSettingsKey = "export/reportDevices";
} // namespace

ReportDevicesDialog::ReportDevicesDialog(const QString& current, QWidget* parent)
    : QDialog(parent), m_current(current), m_list(new QListWidget(this))
{
    setWindowTitle(tr("Devices in the Report"));
    m_list->setObjectName(QStringLiteral("reportDevices"));
    const QStringList checked = remembered(current);
    for (const DeviceGroup& group : costDeviceGroups()) {
        auto* header = new QListWidgetItem(group.title, m_list);
        header->setFlags(Qt::NoItemFlags);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        for (const QString& name : group.names) {
            auto* item = new QListWidgetItem(name, m_list);
            item->setData(Qt::UserRole, name);
            item->setFlags(name == current ? Qt::ItemIsEnabled : Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(checked.contains(name) ? Qt::Checked : Qt::Unchecked);
        }
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(
        new QLabel(tr("Costs in the report, per node and in total, on these devices (%1 first):").arg(current), this));
    layout->addWidget(m_list);
    layout->addWidget(buttons);
    resize(360, 480);
}

QStringList ReportDevicesDialog::chosen() const
{
    QStringList out{m_current};
    for (int i = 0; i < m_list->count(); ++i) {
        const QListWidgetItem* item = m_list->item(i);
        const QString name = item->data(Qt::UserRole).toString();
        if (!name.isEmpty() && item->checkState() == Qt::Checked && !out.contains(name))
            out << name;
    }
    return out;
}

void ReportDevicesDialog::accept()
{
    QSettings().setValue(QLatin1String(kSettingsKey), chosen());
    QDialog::accept();
}

QStringList ReportDevicesDialog::remembered(const QString& current)
{
    QStringList offered;
    for (const DeviceGroup& group : costDeviceGroups())
        offered << group.names;
    const QVariant saved = QSettings().value(QLatin1String(kSettingsKey));
    const QStringList wanted = saved.isValid()
                                   ? saved.toStringList()
                                   : QStringList{QStringLiteral("Cpu"), QStringLiteral("Cuda"), QStringLiteral("Gpu")};
    QStringList out{current};
    for (const QString& name : wanted)
        if (offered.contains(name) && !out.contains(name))
            out << name;
    return out;
}

} // namespace costscope
