// SPDX-License-Identifier: MIT
// The Run panel's "All CUDA devices" (and Vulkan): every device of the backend, one after another and then all at
// once, each predicted under its own calibration, shown in the MultiDeviceView tab.
#include "jobs/all_devices_job.h"
#include "open_graph_feed.h"
#include "panels/bindings_editor.h"
#include "panels/multi_device_view.h"
#include "panels/run_panel.h"

#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QSpinBox>
#include <QTabWidget>

namespace costscope {

void RunPanel::addAllDevicesItem(QComboBox* selector, const Backend& backend)
{
    const std::string name = backend.name();
    if (name == "cpu" || backend.devices().empty()) // the CPU backend is one device: nothing to compare
        return;
    const QString shown = name == "cuda"     ? QStringLiteral("CUDA")
                          : name == "vulkan" ? QStringLiteral("Vulkan")
                                             : QString::fromStdString(name);
    selector->addItem(tr("All %1 devices").arg(shown));
    selector->setItemData(selector->count() - 1, QString::fromStdString(name), kBackendRole);
    selector->setItemData(selector->count() - 1, kAllDevices, kDeviceIndexRole);
}

void RunPanel::startAllDevices()
{
    AllDevicesRequest request{m_feed->graph(), m_feed->settings()->value().bindings,
                              m_device->currentData(kBackendRole).toString().toStdString(), m_runs->value()};
    m_progress->setRange(0, 0); // the devices' threads report no steps: a busy bar until the result is in
    m_status->setText(tr("Running on %1, one device at a time and then all at once …").arg(m_device->currentText()));
    m_job.start([request](const JobContext& job) { return runOnAllDevicesOf(request, job.cancelFlag()); },
                [this](const Result<MultiDeviceRunReport>& result) { showAllDevices(result); });
}

void RunPanel::showAllDevices(const Result<MultiDeviceRunReport>& result)
{
    m_progress->setValue(result ? 1 : 0);
    if (!result) {
        m_status->setText(QString::fromStdString(result.error().message));
        emit finished(false);
        return;
    }
    auto report = std::make_shared<const MultiDeviceRunReport>(*result);
    m_allDevices->showReport(report);
    m_tabs->setCurrentWidget(m_allDevices);
    int failed = 0;
    for (const DeviceRunReport& d : report->devices)
        failed += d.run.failed();
    m_status->setText(
        failed == 0 ? tr("%n device(s) ran, alone and together.", nullptr, static_cast<int>(report->devices.size()))
                    : tr("%1 of %2 devices failed (named in the table).").arg(failed).arg(report->devices.size()));
    emit finished(!report->allFailed());
}

void RunPanel::showSweep(std::shared_ptr<const MultiDeviceRunReport> report)
{
    m_allDevices->showReport(report);
    m_tabs->setCurrentWidget(m_allDevices);
    int failed = 0;
    for (const DeviceRunReport& d : report->devices)
        failed += d.run.failed();
    m_status->setText(tr("Ray sweep: %1 of %2 run(s) measured, each beside its predictions%3.")
                          .arg(report->devices.size() - failed)
                          .arg(report->devices.size())
                          .arg(failed ? tr("; the failed ones are named in the table") : QString()));
}

} // namespace costscope
