// SPDX-License-Identifier: MIT
#include "device_selector.h"
#include "jobs/cost_job.h"
#include <QComboBox>
#include <QFont>
#include <QSignalBlocker>
#include <QStandardItemModel>

namespace costscope {
namespace {
// Marks a header row (its text is a group's title, not a device name).
constexpr int kHeaderRole = Qt::UserRole + 41;
} // namespace

void fillDeviceSelector(QComboBox* box)
{
    const QString current = box->currentText();
    const QSignalBlocker block(box);
    box->clear();
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    for (const DeviceGroup& group : costDeviceGroups()) {
        auto* header = new QStandardItem(group.title);
        header->setFlags(Qt::NoItemFlags); // neither selectable nor enabled: the box skips it
        QFont bold = box->font();
        bold.setBold(true);
        header->setFont(bold);
        header->setData(true, kHeaderRole);
        model->appendRow(header);
        for (const QString& name : group.names)
            box->addItem(name); // the text is the name the analysis settings hold: no indent
    }
    const int again = current.isEmpty() ? -1 : box->findText(current);
    box->setCurrentIndex(again >= 0 && !isDeviceHeader(box, again) ? again : box->findText(QStringLiteral("Cpu")));
}

QStringList deviceNamesOf(const QComboBox* box)
{
    QStringList names;
    for (int i = 0; i < box->count(); ++i)
        if (!isDeviceHeader(box, i))
            names << box->itemText(i);
    return names;
}

bool isDeviceHeader(const QComboBox* box, int index)
{
    return box->itemData(index, kHeaderRole).toBool();
}

} // namespace costscope
