// SPDX-License-Identifier: MIT
#include "charts/sweep_charts.h"
#include "charts/chart_style.h"
#include "charts/symlog.h"
#include "analysis/welch_peaks.h"
#include <algorithm>
#include <cmath>

namespace costscope {

namespace {

QString symbolLabel(const SweepData& d)
{
    return QString::fromStdString(d.symbol.empty() ? std::string("batch") : d.symbol);
}

// Runs of equal picks along the bottom of the axis rect, coloured like the winning series.
void addPickBands(QCustomPlot* plot, const std::vector<std::int64_t>& values, const std::vector<int>& pick)
{
    std::size_t start = 0;
    for (std::size_t i = 1; i <= pick.size(); ++i) {
        if (i < pick.size() && pick[i] == pick[start])
            continue;
        QColor c = seriesColor(pick[start]);
        c.setAlpha(200);
        addBand(plot, cellBounds(values, start).first, cellBounds(values, i - 1).second, 0.965, 1.0, c);
        start = i;
    }
}

// Strategies with no finite cost anywhere draw nothing: say why rather than leave an empty legend entry.
void addClosedStrategiesNote(QCustomPlot* plot, const SweepData& d)
{
    QStringList lines;
    const auto closed = [&](std::size_t s) {
        return s < d.strategyNs.size()
            && std::none_of(d.strategyNs[s].begin(), d.strategyNs[s].end(), [](double ns) { return std::isfinite(ns); });
    };
    const QString device = QString::fromStdString(d.focusLabel);
    if (closed(0))
        lines << QObject::tr("ultra: not open on %1 above batch 128").arg(device);
    if (closed(2))
        lines << QObject::tr("rlx: the gate keeps Welch peaks apart on %1").arg(device);
    if (closed(3))
        lines << (d.learned.available
                      ? QObject::tr("learned %1: not open on %2 (needs ACTIVE·4 < TOTAL and a fusing gate)")
                            .arg(QString::fromStdString(learnedGatesText(d.learned)), device)
                      : QObject::tr("learned: no learned gates (set ACTIVE/TOTAL)"));
    if (!lines.isEmpty() && !d.values.empty())
        addNote(plot, lines.join(QLatin1Char('\n')));
}

void finish(QCustomPlot* plot)
{
    plot->rescaleAxes();
    if (plot->xAxis->scaleType() == QCPAxis::stLogarithmic) {
        const QCPRange r = plot->xAxis->range();
        plot->xAxis->setRange(r.lower / 1.3, r.upper * 1.3);
    }
    if (plot->yAxis->scaleType() == QCPAxis::stLogarithmic) {
        const QCPRange r = plot->yAxis->range();
        plot->yAxis->setRange(r.lower / 2, r.upper * 2);
    } else {
        plot->yAxis->scaleRange(1.1, plot->yAxis->range().center());
    }
    plot->replot(); // lays out the axis rect, which placeMarkerLabels measures
    placeMarkerLabels(plot);
    plot->replot();
}

} // namespace

void createSweepChartAxes(QCustomPlot* costs, QCustomPlot* gates, QCustomPlot* strategies, QCustomPlot* shares)
{
    setupChart(costs, QObject::tr("Cost vs batch per device"), QStringLiteral("batch"),
               QObject::tr("predicted time"), true, true);
    setupChart(gates, QObject::tr("Fusion-gate score per target"), QStringLiteral("batch"),
               QObject::tr("score (symlog)"), true, false);
    gates->yAxis->setTicker(QSharedPointer<SymlogTicker>::create());
    setupChart(strategies, QObject::tr("Welch-peaks strategies"), QStringLiteral("batch"),
               QObject::tr("predicted time"), true, true);
    setupChart(shares, QObject::tr("Where the time goes"), QStringLiteral("batch"), QObject::tr("share of total"),
               true, false);
    auto percent = QSharedPointer<QCPAxisTickerFixed>::create();
    percent->setTickStep(0.2);
    shares->yAxis->setTicker(percent);
}

void plotDeviceCosts(QCustomPlot* plot, const SweepData& d)
{
    resetChart(plot, QObject::tr("Cost vs %1 per device").arg(symbolLabel(d)));
    plot->xAxis->setLabel(symbolLabel(d));
    const SweepResult& r = d.sweep;
    for (std::size_t p = 0; p < d.deviceLabels.size() && !r.totalNs.empty(); ++p) {
        std::vector<double> ys;
        for (const auto& row : r.totalNs)
            ys.push_back(row[p]);
        addSeries(plot, QString::fromStdString(d.deviceLabels[p]), r.values, ys, seriesColor(static_cast<int>(p)));
    }
    std::vector<int> pick(r.pick.begin(), r.pick.end());
    addPickBands(plot, r.values, pick);
    int row = 0;
    for (const Crossover& c : r.crossovers) {
        addMarker(plot, QStringLiteral("crossover"), c.at, QString::fromStdString(c.text), row++ % 4,
                  seriesColor(static_cast<int>(c.to)));
        // The marker's line and label belong to both series: hiding either hides them (ChartInteraction).
        const QStringList series{QString::fromStdString(d.deviceLabels.at(c.from)),
                                 QString::fromStdString(d.deviceLabels.at(c.to))};
        for (int i = std::max(plot->itemCount() - 2, 0); i < plot->itemCount(); ++i)
            plot->item(i)->setProperty("series", series);
    }
    finish(plot);
}

void plotGateScores(QCustomPlot* plot, const SweepData& d, const std::string& shadeTarget)
{
    resetChart(plot, QObject::tr("Fusion-gate score vs %1 (Welch peaks, n_fft %2, k %3)").arg(symbolLabel(d)).arg(d.nFft).arg(d.k));
    plot->xAxis->setLabel(symbolLabel(d));
    int index = 0;
    int row = 0;
    auto addCurves = [&](const std::vector<GateCurve>& curves, Qt::PenStyle style) {
        for (const GateCurve& c : curves) {
            const QColor color = seriesColor(index++);
            std::vector<double> ys;
            for (double s : c.scoreNs)
                ys.push_back(symlog(s));
            QCPGraph* g = addSeries(plot, QString::fromStdString(c.label), d.values, ys, color, &c.scoreNs);
            g->setPen(QPen(color, 2, style));
            g->setProperty("symlog", true);
            const std::vector<double> gain(d.values.size(), c.minGainNs);
            const std::vector<double> gainY(d.values.size(), symlog(c.minGainNs));
            QCPGraph* line = addSeries(plot, QString::fromStdString(c.label) + QStringLiteral(" min_gain"), d.values,
                                       gainY, color, &gain);
            line->setPen(QPen(color, 1, Qt::DotLine));
            line->setScatterStyle(QCPScatterStyle::ssNone);
            line->setProperty("threshold", true);
            line->removeFromLegend();
            for (std::size_t i = 1; i < c.fuse.size(); ++i)
                if (c.fuse[i] != c.fuse[i - 1])
                    addMarker(plot, QStringLiteral("flip:") + QString::fromStdString(c.label),
                              static_cast<double>(d.values[i]),
                              QStringLiteral("%1 %2 from %3 %4")
                                  .arg(QString::fromStdString(c.label),
                                       c.fuse[i] ? QObject::tr("fuses") : QObject::tr("stops fusing"), symbolLabel(d))
                                  .arg(d.values[i]),
                              row++ % 6, color);
            if (c.label != shadeTarget)
                continue;
            // The shaded target's decision per sweep value: green where it fuses, red where it keeps apart.
            for (std::size_t i = 0; i < c.fuse.size(); ++i) {
                const auto [lo, hi] = cellBounds(d.values, i);
                addBand(plot, lo, hi, 0, 1, c.fuse[i] ? QColor(89, 161, 79, 28) : QColor(225, 87, 89, 22));
            }
        }
    };
    addCurves(d.welchGates, Qt::SolidLine);
    addCurves(d.fuseGates, Qt::DashLine);
    if (d.welchGates.empty() && !d.values.empty() && d.symbol != "batch")
        addNote(plot, QObject::tr("Welch peaks: its only symbol is batch; sweep batch to see its gate"));
    finish(plot);
}

void plotStrategies(QCustomPlot* plot, const SweepData& d)
{
    resetChart(plot, QObject::tr("Welch-peaks strategies on %1").arg(QString::fromStdString(d.focusLabel)));
    static const WelchStrategy order[] = {WelchStrategy::Ultra, WelchStrategy::Fast, WelchStrategy::Rlx,
                                          WelchStrategy::Learned};
    for (std::size_t s = 0; s < d.strategyNs.size(); ++s)
        addSeries(plot, QString::fromStdString(std::string(welchStrategyName(order[s]))), d.values, d.strategyNs[s],
                  seriesColor(static_cast<int>(s)));
    addPickBands(plot, d.values, d.strategyPick);
    addClosedStrategiesNote(plot, d);
    for (std::size_t i = 1; i < d.strategyPick.size(); ++i)
        if (d.strategyPick[i] != d.strategyPick[i - 1])
            addMarker(plot, QStringLiteral("pick"), static_cast<double>(d.values[i]),
                      QObject::tr("%1 from batch %2")
                          .arg(QString::fromStdString(std::string(welchStrategyName(order[d.strategyPick[i]]))))
                          .arg(d.values[i]),
                      0, seriesColor(d.strategyPick[i]));
    finish(plot);
}

void plotShares(QCustomPlot* plot, const SweepData& d)
{
    resetChart(plot, QObject::tr("Where the time goes on %1").arg(QString::fromStdString(d.focusLabel)));
    plot->xAxis->setLabel(symbolLabel(d));
    std::vector<double> stacked(d.values.size(), 0.0);
    QCPGraph* below = nullptr;
    for (std::size_t k = 0; k < d.shares.size(); ++k) {
        const ShareCurve& s = d.shares[k];
        for (std::size_t i = 0; i < stacked.size() && i < s.share.size(); ++i)
            stacked[i] += s.share[i];
        const QColor color = s.other ? QColor(190, 190, 190) : seriesColor(static_cast<int>(k));
        QCPGraph* g = addSeries(plot, QString::fromStdString(s.label), d.values, stacked, color, &s.share);
        g->setScatterStyle(QCPScatterStyle::ssNone);
        g->setPen(QPen(color.darker(115), 1));
        QColor fill = color;
        fill.setAlpha(170);
        g->setBrush(fill);
        g->setChannelFillGraph(below);
        g->setProperty("share", true);
        g->setProperty("node", s.other ? QVariant() : QVariant::fromValue<qlonglong>(s.node)); // none for "other"
        below = g;
    }
    plot->rescaleAxes();
    plot->yAxis->setRange(0, 1.0);
    plot->replot();
}

bool highlightShare(QCustomPlot* plot, std::optional<NodeId> node)
{
    bool found = false;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph* g = plot->graph(i);
        const QVariant curveNode = g->property("node");
        const bool on = node && curveNode.isValid() && curveNode.toLongLong() == *node;
        found = found || on;
        QBrush brush = g->brush();
        QColor c = brush.color();
        c.setAlpha(!node ? 170 : on ? 235 : 70);
        brush.setColor(c);
        g->setBrush(brush);
        QPen pen = g->pen();
        pen.setWidthF(on ? 3 : 1);
        pen.setColor(on ? Qt::black : c.darker(115));
        g->setPen(pen);
        // Selected as QCustomPlot understands it too, so the legend and selectedGraphs() show the same thing.
        g->selectionDecorator()->setPen(pen);
        g->selectionDecorator()->setBrush(brush);
        g->setSelection(on ? QCPDataSelection(g->data()->dataRange()) : QCPDataSelection());
        if (QCPPlottableLegendItem* item = plot->legend->itemWithPlottable(g)) {
            QFont font = item->font();
            font.setBold(on);
            item->setFont(font);
        }
    }
    plot->replot();
    return found;
}

} // namespace costscope
