// SPDX-License-Identifier: MIT
#include "charts/chart_interaction.h"
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/symlog.h"
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QToolTip>
#include <qcustomplot.h>

namespace costscope {

ChartInteraction::ChartInteraction(QCustomPlot* plot) : QObject(plot), m_plot(plot)
{
    plot->setMouseTracking(true);
    connect(plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        int index = 0;
        if (QCPGraph* g = pointAt(e->pos(), &index))
            QToolTip::showText(e->globalPosition().toPoint(), describe(g, index, m_plot->xAxis->label()), m_plot);
        else
            QToolTip::hideText();
    });
    connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        int index = 0;
        if (e->button() == Qt::LeftButton)
            if (QCPGraph* g = pointAt(e->pos(), &index))
                emit valueClicked(static_cast<qint64>(g->dataMainKey(index)));
    });
    connect(plot, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        auto* pli = qobject_cast<QCPPlottableLegendItem*>(item);
        if (!pli)
            return;
        QCPAbstractPlottable* p = pli->plottable();
        p->setVisible(!p->visible());
        pli->setTextColor(p->visible() ? Qt::black : QColor(170, 170, 170));
        pli->setSelected(false);
        showItemsOfVisibleSeries();
        m_plot->replot();
    });
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        auto* menu = new QMenu(m_plot);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        for (const QString& format : {QStringLiteral("PNG"), QStringLiteral("SVG"), QStringLiteral("PDF"),
                                      QStringLiteral("CSV")})
            menu->addAction(tr("Export %1…").arg(format), this, [this, format] { exportTo(format); });
        menu->popup(m_plot->mapToGlobal(pos));
    });
}

void ChartInteraction::showItemsOfVisibleSeries()
{
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        QCPAbstractItem* item = m_plot->item(i);
        const QStringList series = item->property("series").toStringList();
        if (series.isEmpty())
            continue;
        bool shown = true;
        for (int g = 0; g < m_plot->graphCount(); ++g)
            if (series.contains(m_plot->graph(g)->name()) && !m_plot->graph(g)->visible())
                shown = false;
        item->setVisible(shown);
    }
}

QCPGraph* ChartInteraction::pointAt(const QPoint& pixel, int* index) const
{
    constexpr double kReachPx = 8;
    QCPGraph* best = nullptr;
    double bestDist = kReachPx * kReachPx;
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph* g = m_plot->graph(i);
        if (!g->visible() || g->property("threshold").toBool())
            continue;
        for (int k = 0; k < g->dataCount(); ++k) {
            const double v = g->dataMainValue(k);
            if (std::isnan(v))
                continue;
            const QPointF p = g->coordsToPixels(g->dataMainKey(k), v);
            const double d = QPointF::dotProduct(p - pixel, p - pixel);
            if (d <= bestDist) {
                bestDist = d;
                best = g;
                *index = k;
            }
        }
    }
    return best;
}

QString ChartInteraction::describe(const QCPGraph* graph, int index, const QString& xLabel)
{
    const std::vector<double> raw = rawValues(graph);
    const double v = static_cast<std::size_t>(index) < raw.size() ? raw[static_cast<std::size_t>(index)] : qQNaN();
    if (graph->property("share").toBool())
        return QStringLiteral("%1 at %2 %3: %4 % of the total")
            .arg(graph->name(), xLabel)
            .arg(graph->dataMainKey(index), 0, 'g', 12)
            .arg(v * 100, 0, 'f', 2);
    return QStringLiteral("%1 at %2 %3: %4 (%5 ns)")
        .arg(graph->name(), xLabel)
        .arg(graph->dataMainKey(index), 0, 'g', 12)
        .arg(durationLabel(v))
        .arg(v, 0, 'f', 1);
}

void ChartInteraction::exportTo(const QString& format)
{
    const QString suffix = format.toLower();
    const QString path = QFileDialog::getSaveFileName(m_plot, tr("Export chart"), QStringLiteral("chart.") + suffix,
                                                      QStringLiteral("%1 (*.%2)").arg(format, suffix));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = suffix == QLatin1String("csv") ? exportChartCsv(m_plot, path, &error)
                                                   : exportChart(m_plot, path, &error);
    if (!ok)
        QMessageBox::warning(m_plot, tr("Export failed"), error);
}

} // namespace costscope
