// SPDX-License-Identifier: MIT
#include "charts/run_scatter.h"
#include "charts/chart_style.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

namespace costscope {

RunScatter::RunScatter(QWidget* parent) : QWidget(parent), m_model(new QComboBox), m_plot(new QCustomPlot)
{
    m_model->addItem(tr("Costscope"), QStringLiteral("costscope"));
    m_model->addItem(tr("RLX parity"), QStringLiteral("rlx"));
    m_plot->setObjectName(QStringLiteral("runScatter"));
    setupChart(m_plot, tr("Predicted vs measured per node"), tr("measured"), tr("predicted"), true, true);
    m_plot->xAxis->setTicker(QSharedPointer<DurationLogTicker>::create());
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Prediction of")));
    controls->addWidget(m_model);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_plot, 1);
    connect(m_model, &QComboBox::currentIndexChanged, this, &RunScatter::redraw);
}

void RunScatter::showComparison(std::shared_ptr<const RunComparison> run)
{
    m_run = std::move(run);
    redraw();
}

void RunScatter::redraw()
{
    const bool rlx = m_model->currentData().toString() == QLatin1String("rlx");
    std::map<OpClass, std::pair<QVector<double>, QVector<double>>> byClass;
    double lo = 0, hi = 0;
    int left = 0;
    static const std::vector<NodeComparison> none;
    for (const NodeComparison& n : m_run ? m_run->nodes : none) {
        const double predicted = rlx ? n.rlxNs : n.costscopeNs;
        if (!(predicted > 0) || !(n.measuredNs > 0)) {
            ++left;
            continue;
        }
        auto& [xs, ys] = byClass[n.opClass];
        xs.push_back(n.measuredNs);
        ys.push_back(predicted);
        lo = lo > 0 ? std::min({lo, predicted, n.measuredNs}) : std::min(predicted, n.measuredNs);
        hi = std::max({hi, predicted, n.measuredNs});
    }
    QString title = tr("Predicted (%1) vs measured per node").arg(m_model->currentText());
    if (left > 0)
        title += tr("; %n node(s) with a zero time not shown", nullptr, left);
    resetChart(m_plot, title);
    for (const auto& [cls, points] : byClass) {
        const std::string_view name = opClassName(cls);
        const QColor colour = seriesColor(static_cast<int>(cls));
        QCPGraph* g = m_plot->addGraph();
        g->setName(QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size())));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 6));
        g->setPen(QPen(colour));
        g->setData(points.first, points.second);
    }
    if (hi > 0) {
        // Equal ranges on both axes keep y = x on the diagonal.
        lo /= 2;
        hi *= 2;
        QCPGraph* diagonal = m_plot->addGraph();
        diagonal->setName(QStringLiteral("y = x"));
        diagonal->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
        diagonal->setData({lo, hi}, {lo, hi});
        m_plot->xAxis->setRange(lo, hi);
        m_plot->yAxis->setRange(lo, hi);
    }
    m_plot->replot();
}

} // namespace costscope
