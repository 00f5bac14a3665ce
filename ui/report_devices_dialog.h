// SPDX-License-Identifier: MIT
#pragma once
// File → Export's choice of devices for a report: every device the toolbar offers, in its groups, checked as the
// user left them last time (the toolbar's device always), so that a report covers the devices the user compares
// and not a fixed three.
#include <QDialog>
#include <QStringList>

class QListWidget;

namespace costscope {

class ReportDevicesDialog : public QDialog {
    Q_OBJECT
public:
    // `current` is the toolbar's device: listed first in the report and always checked.
    explicit ReportDevicesDialog(const QString& current, QWidget* parent = nullptr);
    QListWidget* list() const { return m_list; }
    // The checked devices, the toolbar's first; kept (QSettings) for the next export when the dialog is accepted.
    QStringList chosen() const;
    void accept() override;

    // What the dialog starts with: the last export's devices that still exist, else RLX's Cpu, Cuda and Gpu.
    static QStringList remembered(const QString& current);

private:
    QString m_current;
    QListWidget* m_list;
};

} // namespace costscope
