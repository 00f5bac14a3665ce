// SPDX-License-Identifier: MIT
#include "charts/chart_style.h"
#include "charts/symlog.h"
#include <cmath>

namespace costscope {

namespace {
QFont chartFont(int pt, bool bold = false)
{
    QFont f;
    f.setPointSize(pt);
    f.setBold(bold);
    return f;
}
} // namespace

QColor seriesColor(int index)
{
    // Tableau-10: distinguishable, print-safe, colour-blind friendlier than Qt's defaults.
    static const QColor palette[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
                                     QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                     QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
                                     QColor(0xba, 0xb0, 0xac)};
    return palette[static_cast<std::size_t>(index) % std::size(palette)];
}

void setupChart(QCustomPlot* plot, const QString& title, const QString& xLabel, const QString& yLabel, bool logX,
                bool logY)
{
    plot->setBackground(Qt::white);
    plot->plotLayout()->insertRow(0);
    auto* titleElement = new QCPTextElement(plot, title, chartFont(10, true));
    titleElement->setObjectName(QStringLiteral("title"));
    plot->plotLayout()->addElement(0, 0, titleElement);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setLabelFont(chartFont(9));
        axis->setTickLabelFont(chartFont(8));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setPen(QPen(QColor(225, 225, 225), 0));
        axis->setBasePen(QPen(QColor(120, 120, 120)));
    }
    if (logX) {
        plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(2);
        ticker->setSubTickCount(0);
        plot->xAxis->setTicker(ticker);
        plot->xAxis->setNumberFormat(QStringLiteral("g"));
    }
    if (logY) {
        plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        plot->yAxis->setTicker(QSharedPointer<DurationLogTicker>::create());
    }
    plot->legend->setVisible(true);
    plot->legend->setFont(chartFont(8));
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->legend->setBorderPen(QPen(QColor(200, 200, 200)));
    plot->legend->setSelectableParts(QCPLegend::spItems);
    // Below the chart, in rows: inside it the legend hides curves and marker labels.
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->axisRect()->insetLayout()->simplify();
    plot->plotLayout()->addElement(2, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(4);
    plot->legend->setMargins(QMargins(4, 2, 4, 2));
    plot->setInteractions(QCP::iSelectLegend);
}

void resetChart(QCustomPlot* plot, const QString& title)
{
    plot->clearGraphs();
    plot->clearItems();
    if (auto* t = plot->findChild<QCPTextElement*>(QStringLiteral("title")))
        t->setText(title);
}

QCPGraph* addSeries(QCustomPlot* plot, const QString& name, const std::vector<std::int64_t>& values,
                    const std::vector<double>& ys, const QColor& color, const std::vector<double>* raw)
{
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setPen(QPen(color, 2));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, Qt::white, 5));
    QVector<double> keys, vals;
    QList<double> rawList;
    const bool logX = plot->xAxis->scaleType() == QCPAxis::stLogarithmic;
    for (std::size_t i = 0; i < values.size() && i < ys.size(); ++i) {
        // A log axis cannot place 0; a non-finite value (a strategy not open to the device) is a gap.
        if (logX && values[i] <= 0)
            continue;
        keys << static_cast<double>(values[i]);
        vals << (std::isfinite(ys[i]) ? ys[i] : qQNaN());
        rawList << (raw ? (*raw)[i] : ys[i]);
    }
    g->setData(keys, vals, true);
    g->setProperty("raw", QVariant::fromValue(rawList));
    return g;
}

std::vector<double> rawValues(const QCPGraph* graph)
{
    const QList<double> raw = graph->property("raw").value<QList<double>>();
    return {raw.begin(), raw.end()};
}

std::pair<double, double> cellBounds(const std::vector<std::int64_t>& values, std::size_t i)
{
    const auto at = [&](std::size_t k) { return std::max(1.0, static_cast<double>(values[k])); };
    const double x = at(i);
    const double lo = i > 0 ? std::sqrt(at(i - 1) * x) : x / std::sqrt(i + 1 < values.size() ? at(i + 1) / x : 2.0);
    const double hi = i + 1 < values.size() ? std::sqrt(at(i + 1) * x) : x * std::sqrt(i > 0 ? x / at(i - 1) : 2.0);
    return {lo, hi};
}

QCPItemRect* addBand(QCustomPlot* plot, double x0, double x1, double yTop, double yBottom, const QColor& fill)
{
    auto* r = new QCPItemRect(plot);
    for (QCPItemPosition* p : {r->topLeft, r->bottomRight}) {
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    r->topLeft->setCoords(x0, yTop);
    r->bottomRight->setCoords(x1, yBottom);
    r->setPen(Qt::NoPen);
    r->setBrush(fill);
    r->setSelectable(false);
    r->setLayer(QStringLiteral("background"));
    return r;
}

void addMarker(QCustomPlot* plot, const QString& name, double x, const QString& text, int row, const QColor& color)
{
    auto* line = new QCPItemStraightLine(plot);
    line->setObjectName(name);
    line->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
    line->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(QPen(color, 1.5, Qt::DashLine));
    line->setSelectable(false);
    auto* label = new QCPItemText(plot);
    label->setObjectName(name);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.03 + 0.075 * row);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setText(text);
    label->setFont(chartFont(8, true));
    label->setColor(color.darker(130));
    label->setBrush(QColor(255, 255, 255, 210));
    label->setPadding(QMargins(3, 1, 3, 1));
    label->setSelectable(false);
}

void addNote(QCustomPlot* plot, const QString& text)
{
    auto* note = new QCPItemText(plot);
    note->setObjectName(QStringLiteral("note"));
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.01, 0.80);
    note->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    note->setTextAlignment(Qt::AlignLeft);
    note->setText(text);
    note->setFont(chartFont(8));
    note->setColor(QColor(90, 90, 90));
    note->setBrush(QColor(255, 255, 255, 210));
    note->setPadding(QMargins(3, 1, 3, 1));
    note->setSelectable(false);
}

void placeMarkerLabels(QCustomPlot* plot)
{
    // Labels sit right of their line, or left of it in the right half so they stay inside the chart.
    const double middle = plot->axisRect()->center().x();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->objectName() != QLatin1String("note"))
            t->setPositionAlignment(Qt::AlignTop
                                    | (plot->xAxis->coordToPixel(t->position->coords().x()) > middle ? Qt::AlignRight
                                                                                                      : Qt::AlignLeft));
}

QString DurationLogTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return durationLabel(tick);
}

} // namespace costscope
