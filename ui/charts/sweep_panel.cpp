// SPDX-License-Identifier: MIT
#include "charts/sweep_panel.h"
#include "analysis/fusion_gate.h"
#include "analysis/welch_peaks.h"
#include "charts/chart_interaction.h"
#include "charts/sweep_charts.h"
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <qcustomplot.h>

namespace costscope {

namespace {
std::vector<std::string> splitNames(const QString& text)
{
    std::vector<std::string> names;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            names.push_back(part.trimmed().toStdString());
    return names;
}

QSpinBox* spin(QWidget* parent, const QString& prefix, int value, int max)
{
    auto* s = new QSpinBox(parent);
    s->setRange(1, max);
    s->setValue(value);
    s->setPrefix(prefix);
    return s;
}
} // namespace

SweepPanel::SweepPanel(QWidget* parent, Arrangement arrangement)
    : QWidget(parent), m_delay(new QTimer(this)), m_symbol(new QLineEdit(QStringLiteral("batch"), this)),
      m_values(new QLineEdit(QStringLiteral("1:4096:x2"), this)),
      m_devices(new QLineEdit(QStringLiteral("Cpu,Cuda,Gpu"), this)),
      m_nFft(spin(this, QStringLiteral("n_fft "), 256, 1 << 20)), m_k(spin(this, QStringLiteral("k "), 16, 4096)),
      m_learned(new QLineEdit(QString::fromStdString(learnedGatesText({})), this)),
      m_status(new QLabel(this)), m_costs(new QCustomPlot(this)), m_gates(new QCustomPlot(this)),
      m_strategies(new QCustomPlot(this)), m_shares(new QCustomPlot(this))
{
    m_symbol->setToolTip(tr("Symbol to sweep"));
    m_symbol->setMaximumWidth(90);
    m_status->setWordWrap(true);
    m_values->setToolTip(tr("Values: a list (1,2,4), a geometric range (1:4096:x2) or an arithmetic one (1:64:+8)"));
    m_devices->setToolTip(tr("Devices or profiles to compare, comma-separated"));
    m_learned->setToolTip(tr("Learned fusion gates for the Welch-peaks \"learned\" strategy: ACTIVE/TOTAL (e.g. 1/8, "
                             "open while ACTIVE·4 < TOTAL) or off, RLX's default, under which it is never open"));
    m_learned->setMaximumWidth(70);
    auto* fuse = new QPushButton(tr("Fuse selection"), this);
    fuse->setToolTip(tr("Score the nodes selected on the canvas (Ctrl+click to select several) as one kernel"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Sweep"), this));
    controls->addWidget(m_symbol);
    controls->addWidget(new QLabel(tr("over"), this));
    controls->addWidget(m_values, 2);
    controls->addWidget(new QLabel(tr("on"), this));
    controls->addWidget(m_devices, 2);
    // A second row keeps the dock narrow enough to sit beside the canvas.
    auto* options = new QHBoxLayout;
    options->addWidget(m_nFft);
    options->addWidget(m_k);
    options->addWidget(new QLabel(tr("learned"), this));
    options->addWidget(m_learned);
    options->addWidget(fuse);
    options->addWidget(m_status, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(options);
    if (arrangement == Arrangement::Tabs) {
        auto* tabs = new QTabWidget(this);
        tabs->addTab(m_costs, tr("Devices"));
        tabs->addTab(m_gates, tr("Fusion gate"));
        tabs->addTab(m_strategies, tr("Welch peaks"));
        tabs->addTab(m_shares, tr("Time shares"));
        layout->addWidget(tabs, 1);
    } else {
        auto* grid = new QGridLayout;
        grid->addWidget(m_costs, 0, 0);
        grid->addWidget(m_gates, 0, 1);
        grid->addWidget(m_strategies, 1, 0);
        grid->addWidget(m_shares, 1, 1);
        layout->addLayout(grid, 1);
    }
    createSweepChartAxes(m_costs, m_gates, m_strategies, m_shares);
    for (QCustomPlot* plot : {m_costs, m_gates, m_strategies, m_shares}) {
        plot->setMinimumSize(160, 110);
        connect(new ChartInteraction(plot), &ChartInteraction::valueClicked, this, &SweepPanel::valueClicked);
    }

    m_delay->setSingleShot(true);
    m_delay->setInterval(150);
    connect(m_delay, &QTimer::timeout, this, &SweepPanel::recompute);
    for (QLineEdit* e : {m_symbol, m_values, m_devices, m_learned})
        connect(e, &QLineEdit::editingFinished, this, &SweepPanel::schedule);
    connect(m_nFft, &QSpinBox::valueChanged, this, &SweepPanel::schedule);
    connect(m_k, &QSpinBox::valueChanged, this, &SweepPanel::schedule);
    connect(fuse, &QPushButton::clicked, this, &SweepPanel::fuseRequested);
    schedule();
}

SweepPanel::~SweepPanel() = default;

void SweepPanel::setGraph(std::shared_ptr<const Graph> graph)
{
    m_in.graph = std::move(graph);
    m_in.fuseNodes.clear();
    m_in.pinnedNode.reset();
    schedule();
}

void SweepPanel::setModel(const QString& model)
{
    m_in.model = model.toStdString();
    schedule();
}

void SweepPanel::setFocusDevice(const QString& device)
{
    m_in.focusDevice = device.toStdString();
    schedule();
}

void SweepPanel::setBase(const Bindings& base)
{
    // The swept symbol's own value is overridden at every point: a change to it alone changes no curve.
    const std::string swept = m_symbol->text().trimmed().toStdString();
    Bindings before = m_in.base, after = base;
    before.erase(swept);
    after.erase(swept);
    m_in.base = base;
    if (before != after)
        schedule();
}

void SweepPanel::setFuseNodes(std::vector<NodeId> nodes)
{
    m_in.fuseNodes = std::move(nodes);
    schedule();
}

void SweepPanel::setRlxVersion(RlxVersion version)
{
    if (m_in.rlxVersion == version)
        return;
    m_in.rlxVersion = version;
    schedule();
}

void SweepPanel::setHighlightedNode(std::optional<NodeId> node)
{
    m_highlight = node;
    if (!highlightShare(m_shares, node) && node && m_in.graph && m_in.graph->find(*node)) {
        m_in.pinnedNode = node;
        schedule();
    }
}

QString SweepPanel::statusText() const
{
    return m_status->text();
}

void SweepPanel::schedule()
{
    m_delay->start();
}

std::optional<SweepInputs> SweepPanel::inputs()
{
    SweepInputs in = m_in;
    in.symbol = m_symbol->text().trimmed().toStdString();
    if (in.symbol.empty()) {
        m_status->setText(tr("Name the symbol to sweep"));
        return std::nullopt;
    }
    auto values = parseSweepValues(m_values->text().trimmed().toStdString());
    if (!values) {
        m_status->setText(tr("Values: %1").arg(QString::fromStdString(values.error().message)));
        return std::nullopt;
    }
    in.values = std::move(*values);
    in.devices = splitNames(m_devices->text());
    in.nFft = m_nFft->value();
    in.k = m_k->value();
    auto learned = parseLearnedGates(m_learned->text().trimmed().toStdString());
    if (!learned) {
        m_status->setText(QString::fromStdString(learned.error().message));
        return std::nullopt;
    }
    in.learned = *learned;
    return in;
}

quint64 SweepPanel::recompute()
{
    m_delay->stop();
    m_job.drop(); // the request moved on, whether or not the new one can start
    auto in = inputs();
    if (!in)
        return 0;
    m_status->setText(tr("Computing…"));
    return m_job.start([in = std::move(*in)](const JobContext& job) { return computeSweepData(in, job.cancelFlag()); },
                       [this](SweepData data) { showData(std::move(data)); });
}

bool SweepPanel::applyResult(quint64 job, SweepData data)
{
    return m_job.isCurrent(job) && showData(std::move(data));
}

bool SweepPanel::showData(SweepData data)
{
    if (data.cancelled)
        return false;
    m_data = std::move(data);
    replot();
    emit resultsApplied();
    return true;
}

void SweepPanel::replot()
{
    const SweepData& d = m_data;
    QStringList notes;
    if (!d.error.empty())
        notes << QString::fromStdString(d.error);
    if (!d.fuseError.empty())
        notes << tr("Fuse selection: %1").arg(QString::fromStdString(d.fuseError));
    else if (!d.fuseGates.empty())
        notes << tr("%n selected node(s) scored as one kernel", nullptr, static_cast<int>(m_in.fuseNodes.size()));
    if (!d.symbolInGraph)
        notes << tr("the graph has no symbol '%1': its costs do not change").arg(QString::fromStdString(d.symbol));
    if (d.symbol != "batch")
        notes << tr("Welch peaks: the values stand for its batch");
    m_status->setText(notes.join(QStringLiteral("; ")));
    plotDeviceCosts(m_costs, d);
    std::string shade;
    if (auto device = parseDevice(d.focusLabel))
        if (auto target = fusionTargetFor(*device))
            shade = std::string(fusionTargetName(*target));
    plotGateScores(m_gates, d, shade);
    plotStrategies(m_strategies, d);
    plotShares(m_shares, d);
    highlightShare(m_shares, m_highlight);
}

} // namespace costscope
