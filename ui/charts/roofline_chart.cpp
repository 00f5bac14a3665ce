// SPDX-License-Identifier: MIT
#include "charts/roofline_chart.h"
#include "charts/chart_style.h"
#include "jobs/batched_graph.h"
#include "jobs/cost_job.h"
#include "jobs/job_tracker.h"
#include "open_graph_feed.h"
#include "panel_dock.h"
#include <QComboBox>
#include <QMainWindow>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace costscope {

namespace {
QSharedPointer<QCPAxisTickerLog> decadeTicker()
{
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(10);
    ticker->setSubTickCount(0);
    return ticker;
}

struct Series {
    QVector<double> x, y;
    std::vector<NodeId> nodes;
};

// The points of one rate (predicted or measured), sorted by intensity as QCPGraph keeps its data.
Series seriesOf(const Roofline& r, bool measured)
{
    std::vector<std::pair<double, std::pair<double, NodeId>>> points;
    for (const RooflinePoint& p : r.points)
        if (const double rate = measured ? p.measuredGflops.value_or(0) : p.predictedGflops; rate > 0)
            points.push_back({p.intensity, {rate, p.id}});
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    Series s;
    for (const auto& [x, rest] : points) {
        s.x.push_back(x);
        s.y.push_back(rest.first);
        s.nodes.push_back(rest.second);
    }
    return s;
}
} // namespace

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot)
{
    m_plot->setObjectName(QStringLiteral("rooflineChart"));
    setupChart(m_plot, tr("Roofline"), tr("arithmetic intensity (FLOP/byte)"), tr("GFLOP/s"), true, true);
    m_plot->xAxis->setTicker(decadeTicker());
    m_plot->yAxis->setTicker(decadeTicker());
    m_plot->yAxis->setNumberFormat(QStringLiteral("g"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    connect(m_plot, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* series, int dataIndex) {
        if (const auto node = nodeAt(series, dataIndex))
            emit nodeSelected(*node);
    });
}

std::optional<NodeId> RooflineChart::nodeAt(const QCPAbstractPlottable* series, int dataIndex) const
{
    for (const auto& [drawn, nodes] : m_nodesOf)
        if (drawn == series && dataIndex >= 0 && static_cast<std::size_t>(dataIndex) < nodes.size())
            return nodes[static_cast<std::size_t>(dataIndex)];
    return std::nullopt;
}

void RooflineChart::showRoofline(Roofline roofline, const QString& device)
{
    m_roofline = std::move(roofline);
    m_nodesOf.clear();
    const Roofline& r = m_roofline;
    QString title = device.isEmpty() ? tr("Roofline") : tr("Roofline on %1").arg(device);
    if (r.leftOut > 0)
        title += tr("; %n node(s) without FLOPs or bytes not shown", nullptr, static_cast<int>(r.leftOut));
    resetChart(m_plot, title);
    if (r.points.empty() || !(r.peakGflops > 0) || !(r.bandwidthGBps > 0)) {
        m_plot->replot();
        return;
    }
    double xLo = r.ridgeIntensity(), xHi = xLo, yLo = r.peakGflops, yHi = r.peakGflops;
    for (bool measured : {false, true}) {
        Series s = seriesOf(r, measured);
        if (s.x.isEmpty())
            continue;
        xLo = std::min(xLo, s.x.front());
        xHi = std::max(xHi, s.x.back());
        for (double y : s.y) {
            yLo = std::min(yLo, y);
            yHi = std::max(yHi, y);
        }
        const QColor colour = seriesColor(measured ? 1 : 0);
        QCPGraph* g = m_plot->addGraph();
        g->setName(measured ? QStringLiteral("measured") : QStringLiteral("predicted"));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(
            QCPScatterStyle(measured ? QCPScatterStyle::ssTriangle : QCPScatterStyle::ssDisc, colour, 7));
        g->setPen(QPen(colour));
        g->setData(s.x, s.y, true);
        m_nodesOf.emplace_back(g, std::move(s.nodes));
    }
    xLo /= 4;
    xHi *= 4;
    // The roofs: the bandwidth slope up to the ridge, then the compute peak.
    QCPGraph* roof = m_plot->addGraph();
    roof->setName(tr("roof (%1 GFLOP/s, %2 GB/s)").arg(r.peakGflops, 0, 'g', 4).arg(r.bandwidthGBps, 0, 'g', 4));
    roof->setPen(QPen(QColor(60, 60, 60), 2));
    roof->setSelectable(QCP::stNone);
    const double ridge = r.ridgeIntensity();
    QVector<double> roofX{xLo}, roofY{r.attainableGflops(xLo)};
    if (ridge > xLo && ridge < xHi) {
        roofX.push_back(ridge);
        roofY.push_back(r.peakGflops);
    }
    roofX.push_back(xHi);
    roofY.push_back(r.attainableGflops(xHi));
    roof->setData(roofX, roofY, true);
    m_plot->xAxis->setRange(xLo, xHi);
    m_plot->yAxis->setRange(std::min(yLo, roofY.front()) / 2, yHi * 2);
    m_plot->replot();
}

RooflineChart* installRooflineDock(QMainWindow* window, OpenGraphFeed* feed)
{
    auto* chart = new RooflineChart(window);
    addPanelDock(window, chart, QObject::tr("Roofline"), QStringLiteral("rooflineDock"), Qt::BottomDockWidgetArea,
                 QStringLiteral("topNodesDock"));
    // The Costscope model's costs whatever model the canvas shows: it counts every op's FLOPs and bytes, where RLX
    // parity counts them for a few op kinds only. Priced off the GUI thread; an answer the window moved on from is
    // dropped.
    auto* job = new JobTracker(chart);
    const auto update = [feed, chart, job] {
        job->drop();
        const QString device = QString::fromStdString(feed->settings()->value().device);
        const auto profile = profileForDeviceName(device.toStdString());
        if (!feed->graph() || !profile) {
            chart->showRoofline({}, {});
            return;
        }
        const Bindings bindings = feed->settings()->value().bindings;
        const auto graph = graphAtBatch(feed->graph(), bindings.at("batch")).graph;
        job->start(
            [graph, bindings, profile, measured = feed->overlay().measured()] {
                return rooflineOf(makeCostModel("costscope")->estimate(*graph, *profile, bindings), *profile, measured);
            },
            [chart, device, profile](const Roofline& roofline) {
                chart->showRoofline(
                    roofline,
                    QStringLiteral("%1 (%2), Costscope model").arg(device, QString::fromStdString(profile->name)));
            });
    };
    QObject::connect(feed, &OpenGraphFeed::costsUpdated, chart, update);
    QObject::connect(feed, &OpenGraphFeed::measuredChanged, chart, update);
    QObject::connect(feed, &OpenGraphFeed::graphChanged, chart, [chart, job] {
        job->drop();
        chart->showRoofline({}, {});
    });
    QObject::connect(chart, &RooflineChart::nodeSelected, feed, &OpenGraphFeed::selectNodeRequested);
    return chart;
}

} // namespace costscope
