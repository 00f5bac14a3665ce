// SPDX-License-Identifier: MIT
#include "panels/multi_device_view.h"

#include "device_ref.h"

#include "canvas/overlay_model.h"
#include "charts/chart_style.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace costscope {

namespace {
QString percent(double v)
{
    return QStringLiteral("%1%2 %").arg(v >= 0 ? QStringLiteral("+") : QString()).arg(v * 100, 0, 'f', 1);
}

QString median(const std::optional<TimingStats>& t)
{
    return t ? formatNs(double(t->medianNs)) : QStringLiteral("–");
}

QString deviceId(const MultiDeviceRunReport& r, const DeviceRunReport& d)
{
    return QStringLiteral("%1:%2").arg(QString::fromStdString(r.backend)).arg(d.run.device.index);
}

QString status(const DeviceRunReport& d)
{
    QStringList parts;
    if (!d.run.error.empty())
        parts << (d.run.failed() ? QObject::tr("FAILED: %1") : QObject::tr("partly failed: %1"))
                     .arg(QString::fromStdString(d.run.error));
    if (!d.predictionProblem.empty())
        parts << QObject::tr("no prediction: %1").arg(QString::fromStdString(d.predictionProblem));
    return parts.isEmpty() ? QObject::tr("ok") : parts.join(QStringLiteral("; "));
}
} // namespace

MultiDeviceView::MultiDeviceView(QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget), m_spread(new QLabel), m_pick(new QLabel), m_chart(new QCustomPlot)
{
    m_table->setObjectName(QStringLiteral("multiDeviceTable"));
    m_table->setColumnCount(Status + 1);
    m_table->setHorizontalHeaderLabels({tr("Device"), tr("Model"), tr("PCI bus"), tr("Isolated"), tr("Concurrent"),
                                        tr("Contention"), tr("Predicted"), tr("Error"), tr("Profile"), tr("Status")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setToolTip(tr("Isolated: the device alone, the others waiting; concurrent: every device at once. "
                           "Predicted: the Costscope model under the device's own calibrated profile."));
    m_spread->setObjectName(QStringLiteral("multiDeviceSpread"));
    m_spread->setWordWrap(true);
    m_pick->setObjectName(QStringLiteral("multiDevicePick"));
    m_pick->setWordWrap(true);
    m_chart->setObjectName(QStringLiteral("multiDeviceChart"));
    setupChart(m_chart, tr("Median time per device"), tr("device"), tr("time (ms)"), false, false);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(m_chart);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_spread);
    layout->addWidget(m_pick);
    layout->addWidget(split, 1);
    showReport(nullptr);
}

void MultiDeviceView::showReport(std::shared_ptr<const MultiDeviceRunReport> report)
{
    m_report = std::move(report);
    fillTable();
    showPick();
    drawChart();
}

void MultiDeviceView::showPick()
{
    m_pick->clear();
    if (!m_report)
        return;
    const RunDevicePick pick = pickAmongRunDevices(*m_report);
    QStringList parts;
    if (pick.byPrediction.pick) {
        const InstanceEstimate& chosen = pick.estimates[*pick.byPrediction.pick];
        parts << tr("<b>Pick: %1</b> (%2): %3")
                     .arg(QString::fromStdString(chosen.id), QString::fromStdString(chosen.label).toHtmlEscaped(),
                          QString::fromStdString(pick.byPrediction.reason).toHtmlEscaped());
    }
    if (pick.fastestMeasured) {
        const DeviceRun& run = m_report->devices[*pick.fastestMeasured].run;
        parts << tr("measured fastest: %1 (%2)")
                     .arg(QString::fromStdString(localDeviceId(run.device)),
                          QString::fromStdString(run.device.name).toHtmlEscaped());
    }
    m_pick->setText(parts.join(QStringLiteral("; ")));
    // The picked device's row reads bold.
    if (pick.byPrediction.pick)
        for (int row = 0; row < m_table->rowCount(); ++row)
            if (QTableWidgetItem* item = m_table->item(row, Device);
                item && item->text().toStdString() == pick.estimates[*pick.byPrediction.pick].id)
                for (int c = 0; c < m_table->columnCount(); ++c)
                    if (QTableWidgetItem* cell = m_table->item(row, c)) {
                        QFont bold = cell->font();
                        bold.setBold(true);
                        cell->setFont(bold);
                    }
}

void MultiDeviceView::fillTable()
{
    m_table->setRowCount(0);
    if (!m_report) {
        m_spread->setText(tr("Pick \"All … devices\" and Run: every device alone, then all at once."));
        return;
    }
    m_table->setRowCount(static_cast<int>(m_report->devices.size()));
    int row = 0;
    for (const DeviceRunReport& d : m_report->devices) {
        const DeviceInfo& info = d.run.device;
        const auto contention = d.contention();
        const auto error = d.costscopeError();
        const QStringList cells = {deviceId(*m_report, d),
                                   QString::fromStdString(info.name),
                                   info.pciBusId.empty() ? QStringLiteral("–") : QString::fromStdString(info.pciBusId),
                                   median(d.run.isolated),
                                   median(d.run.concurrent),
                                   contention ? percent(*contention) : QStringLiteral("–"),
                                   d.costscopeNs() ? formatNs(*d.costscopeNs()) : QStringLiteral("–"),
                                   error ? percent(*error) : QStringLiteral("–"),
                                   d.predicted ? QString::fromStdString(d.predicted->costscope.profile)
                                               : QStringLiteral("–"),
                                   status(d)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (d.run.failed())
                item->setForeground(QColor(200, 40, 40));
            m_table->setItem(row, c, item);
        }
        ++row;
    }
    m_table->resizeColumnsToContents();
    QStringList lines;
    for (const ModelSpread& s : m_report->spreads)
        lines << tr("Spread of %1 (%n device(s), max/min − 1): isolated %2, concurrent %3", nullptr, s.devices)
                     .arg(QString::fromStdString(s.model), percent(s.isolated),
                          s.concurrent ? percent(*s.concurrent) : QStringLiteral("–"));
    for (const DeviceRunReport& d : m_report->devices)
        if (d.run.failed())
            lines << tr("%1 (%2) failed: %3")
                         .arg(deviceId(*m_report, d), QString::fromStdString(d.run.device.name),
                              QString::fromStdString(d.run.error));
    m_spread->setText(lines.join(QLatin1Char('\n')));
}

void MultiDeviceView::drawChart()
{
    resetChart(m_chart, tr("Median time per device"));
    m_chart->clearPlottables();
    qDeleteAll(m_chart->findChildren<QCPBarsGroup*>()); // the last report's, now without bars
    if (!m_report || m_report->devices.empty()) {
        m_chart->replot();
        return;
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys;
    QVector<double> isolated, concurrent, predicted;
    double top = 0;
    for (std::size_t i = 0; i < m_report->devices.size(); ++i) {
        const DeviceRunReport& d = m_report->devices[i];
        const double key = double(i) + 1;
        keys << key;
        QString label = deviceId(*m_report, d);
        if (d.run.failed())
            label += tr(" (failed)");
        ticker->addTick(key, label);
        isolated << (d.run.isolated ? double(d.run.isolated->medianNs) / 1e6 : 0.0);
        concurrent << (d.run.concurrent ? double(d.run.concurrent->medianNs) / 1e6 : 0.0);
        predicted << d.costscopeNs().value_or(0.0) / 1e6;
        top = std::max({top, isolated.back(), concurrent.back(), predicted.back()});
    }
    auto* group = new QCPBarsGroup(m_chart);
    const std::pair<QString, QVector<double>*> series[] = {
        {tr("isolated"), &isolated}, {tr("concurrent"), &concurrent}, {tr("predicted (Costscope)"), &predicted}};
    int colour = 0;
    for (const auto& [name, values] : series) {
        auto* bars = new QCPBars(m_chart->xAxis, m_chart->yAxis);
        bars->setName(name);
        bars->setWidth(0.25);
        bars->setBrush(seriesColor(colour));
        bars->setPen(QPen(seriesColor(colour++).darker(130)));
        bars->setData(keys, *values);
        bars->setBarsGroup(group);
    }
    m_chart->xAxis->setTicker(ticker);
    m_chart->xAxis->setRange(0.4, double(keys.size()) + 0.6);
    m_chart->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
    m_chart->replot();
}

} // namespace costscope
