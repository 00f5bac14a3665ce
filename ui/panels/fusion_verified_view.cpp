// SPDX-License-Identifier: MIT
#include "panels/fusion_verified_view.h"

#include "canvas/fused_kernel_outlines.h"
#include "canvas/graph_scene.h"
#include "canvas/overlay_model.h"
#include "charts/chart_style.h"
#include "jobs/fusion_verify_job.h"
#include "open_graph_feed.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace costscope {

namespace {
QTableWidgetItem* withinItem(bool checked, double predicted, double measured)
{
    if (!checked)
        return new QTableWidgetItem(QObject::tr("not checked"));
    const bool within = gainWithinTolerance(predicted, measured);
    return valueItem(within ? QObject::tr("yes") : QObject::tr("no"), within ? 1 : 0);
}

QString shareText(double share, std::size_t checked)
{
    return QStringLiteral("%1/%2 (%3 %)")
        .arg(std::llround(share * double(checked)))
        .arg(checked)
        .arg(100 * share, 0, 'f', 0);
}
} // namespace

FusionVerifiedView::FusionVerifiedView(OpenGraphFeed* feed, GraphScene* scene,
                                       std::function<Result<RunRequest>()> request, QWidget* parent)
    : QWidget(parent), m_scene(scene), m_request(std::move(request)), m_verify(new QPushButton(tr("Verify fusion"))),
      m_summary(new QLabel),
      m_table(makeTable(ColumnCount, {tr("Kernel"), tr("Nodes"), tr("Unfused"), tr("Fused"), tr("Measured gain"),
                                      tr("RLX gate gain"), tr("RLX within ±25 %"), tr("Costscope gain"),
                                      tr("Costscope within ±25 %")})),
      m_chart(new QCustomPlot)
{
    m_verify->setToolTip(tr("Run the graph unfused and fused on the Run panel's device (same warm-up and runs) and "
                            "set each fused kernel's measured gain beside the predicted ones"));
    m_summary->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("fusionVerifiedTable"));
    m_table->setSortingEnabled(true);
    m_chart->setObjectName(QStringLiteral("fusionGainChart"));
    setupChart(m_chart, tr("Predicted vs measured gain per fused kernel"), tr("measured gain (µs)"),
               tr("predicted gain (µs)"), false, false);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_verify);
    controls->addWidget(m_summary, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_table);
    split->addWidget(m_chart);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(split, 1);
    connect(m_verify, &QPushButton::clicked, this, &FusionVerifiedView::start);
    connect(&m_job, &JobTracker::busyChanged, this, &FusionVerifiedView::setBusy);
    // A newly opened or edited graph makes a verification in flight, and the one shown, stale.
    connect(feed, &OpenGraphFeed::graphChanged, this, [this] {
        m_job.drop();
        showVerification(nullptr, nullptr);
    });
}

FusionVerifiedView::~FusionVerifiedView() = default;

void FusionVerifiedView::setBusy(bool busy)
{
    m_verify->setEnabled(!busy);
    emit busyChanged(busy);
}

void FusionVerifiedView::start()
{
    auto request = m_request();
    if (!request) {
        m_summary->setText(QString::fromStdString(request.error().message));
        emit finished(false);
        return;
    }
    m_summary->setText(tr("Running unfused, then fused …"));
    m_job.start([request = *request](const JobContext& job) { return verifyFusionOf(request, job.cancelFlag(), {}); },
                [this, graph = request->graph](const Result<FusionVerification>& result) {
                    if (!result) {
                        m_summary->setText(QString::fromStdString(result.error().message));
                        emit finished(false);
                        return;
                    }
                    showVerification(std::make_shared<const FusionVerification>(*result), graph);
                    emit finished(true);
                });
}

void FusionVerifiedView::showVerification(std::shared_ptr<const FusionVerification> verification,
                                          std::shared_ptr<const Graph> graph)
{
    m_verification = std::move(verification);
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    std::vector<FusedKernelOutline> outlines;
    if (!m_verification || !graph) {
        m_summary->clear();
    } else {
        const FusionVerification& v = *m_verification;
        const double gain = double(v.unfusedWhole.medianNs - v.fusedWhole.medianNs);
        QString text = tr("%1: unfused %2, fused %3 (median of %4; measured gain %5). ")
                           .arg(QString::fromStdString(v.backend), formatNs(double(v.unfusedWhole.medianNs)),
                                formatNs(double(v.fusedWhole.medianNs)))
                           .arg(v.fusedWhole.runs)
                           .arg(formatNs(gain));
        if (const std::string why = v.nothingToVerify(); !why.empty())
            text += QString::fromStdString(why);
        else
            text += tr("%n fused kernel(s); predicted gain within ±25 % of measured: RLX gate (%1) %2, Costscope "
                       "(%3) %4",
                       nullptr, int(v.kernels.size()))
                        .arg(QString::fromStdString(v.target), shareText(v.rlxShareWithin, v.checkedKernels),
                             QString::fromStdString(v.profile), shareText(v.costscopeShareWithin, v.checkedKernels));
        m_summary->setText(text);
        fillTable(*graph);
        for (const FusedKernelCheck& k : v.kernels) {
            FusedKernelOutline o{QString::fromStdString(k.kernel), k.fusedNs, {}};
            for (NodeId id : k.members)
                if (auto pos = graph->indexOf(id))
                    o.nodes.push_back(*pos);
            outlines.push_back(std::move(o));
        }
    }
    m_table->setSortingEnabled(true);
    drawChart();
    if (m_scene->graph() == graph.get() || !graph)
        FusedKernelOutlines::of(m_scene)->setKernels(std::move(outlines));
}

void FusionVerifiedView::fillTable(const Graph& graph)
{
    const auto& kernels = m_verification->kernels;
    m_table->setRowCount(int(kernels.size()));
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const FusedKernelCheck& k = kernels[std::size_t(r)];
        QStringList nodes;
        for (NodeId id : k.members) {
            const Node* n = graph.find(id);
            nodes << (n ? QStringLiteral("%1 %2").arg(id).arg(QString::fromStdString(n->op.label()))
                        : QString::number(id));
        }
        auto* kernel = new QTableWidgetItem(QString::fromStdString(k.kernel));
        if (!k.checked())
            kernel->setToolTip(tr("Not checked: %1").arg(QString::fromStdString(k.problem)));
        m_table->setItem(r, Kernel, kernel);
        m_table->setItem(r, Nodes, new QTableWidgetItem(nodes.join(QLatin1String(", "))));
        m_table->setItem(r, Unfused, nsItem(k.unfusedNs));
        m_table->setItem(r, Fused, nsItem(k.fusedNs));
        m_table->setItem(r, MeasuredGain, nsItem(k.measuredGainNs));
        m_table->setItem(r, RlxGain, nsItem(k.rlxGateGainNs));
        m_table->setItem(r, RlxWithin, withinItem(k.checked(), k.rlxGateGainNs, k.measuredGainNs));
        m_table->setItem(r, CostscopeGain, nsItem(k.costscopeGainNs));
        m_table->setItem(r, CostscopeWithin, withinItem(k.checked(), k.costscopeGainNs, k.measuredGainNs));
    }
}

void FusionVerifiedView::drawChart()
{
    resetChart(m_chart, tr("Predicted vs measured gain per fused kernel"));
    QVector<double> measured, rlx, costscope;
    double lo = 0, hi = 0;
    if (m_verification)
        for (const FusedKernelCheck& k : m_verification->kernels) {
            if (!k.checked())
                continue;
            measured << k.measuredGainNs / 1e3;
            rlx << k.rlxGateGainNs / 1e3;
            costscope << k.costscopeGainNs / 1e3;
            lo = std::min({lo, measured.back(), rlx.back(), costscope.back()});
            hi = std::max({hi, measured.back(), rlx.back(), costscope.back()});
        }
    const auto series = [&](const QString& name, const QVector<double>& ys, int colour) {
        QCPGraph* g = m_chart->addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, seriesColor(colour), 7));
        g->setData(measured, ys);
    };
    series(tr("RLX gate"), rlx, 0);
    series(tr("Costscope what-if"), costscope, 1);
    if (hi > lo) {
        const double pad = 0.05 * (hi - lo);
        lo -= pad;
        hi += pad;
        QCPGraph* diagonal = m_chart->addGraph();
        diagonal->setName(QStringLiteral("y = x"));
        diagonal->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
        diagonal->setData({lo, hi}, {lo, hi});
        m_chart->xAxis->setRange(lo, hi);
        m_chart->yAxis->setRange(lo, hi);
    }
    m_chart->replot();
}

} // namespace costscope
