// SPDX-License-Identifier: MIT
#include "diff/diff_window.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "canvas/overlay_model.h"
#include "jobs/device_costs.h"
#include "jobs/job_tracker.h"
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace costscope {
namespace {

const QColor kRemoved(0xd0, 0x3a, 0x2f);
const QColor kAdded(0x2e, 0x9d, 0x4f);
const QColor kChanged(0xe8, 0x8b, 0x1a);

QString signedNs(double ns)
{
    return (ns < 0 ? QStringLiteral("−") : ns > 0 ? QStringLiteral("+") : QString()) + formatNs(std::abs(ns));
}

QString nodeLabel(const Graph& g, std::size_t index)
{
    const Node& n = g.nodes[index];
    const std::string name = n.displayName();
    return QStringLiteral("#%1 %2").arg(n.id).arg(QString::fromStdString(name.empty() ? n.op.label() : name));
}

// Both graphs on every device both can be costed on, paired for costDiff.
std::vector<DeviceCostDiff> computeCostDiff(const Graph& a, const Graph& b, const GraphDiff& d, const CostProvider& provider,
                                            const CostRequest& request, const std::vector<std::string>& devices)
{
    const DeviceCosts ca = computeDeviceCosts(a, provider, request.model, devices, request.bindings);
    const DeviceCosts cb = computeDeviceCosts(b, provider, request.model, devices, request.bindings);
    std::vector<GraphCost> pa, pb;
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (ca.costs[i] && cb.costs[i]) {
            pa.push_back(*ca.costs[i]);
            pb.push_back(*cb.costs[i]);
        }
    auto diffs = costDiff(d, pa, pb);
    for (std::size_t i = 0, k = 0; i < devices.size() && k < diffs.size(); ++i)
        if (ca.costs[i] && cb.costs[i])
            diffs[k++].device = devices[i]; // the toolbar's name, which the selector shows
    return diffs;
}

} // namespace

DiffWindow::DiffWindow(Side a, Side b, CostProvider provider, CostRequest request, QStringList devices, QWidget* parent)
    : QWidget(parent, Qt::Window), m_a(std::move(a)), m_b(std::move(b)), m_diff(diffGraphs(*m_a.graph, *m_b.graph)),
      m_sceneA(new GraphScene(this)), m_sceneB(new GraphScene(this)), m_viewA(new CanvasView(m_sceneA, this)),
      m_viewB(new CanvasView(m_sceneB, this)), m_summary(new QLabel(this)), m_device(new QComboBox(this)),
      m_table(new QTableWidget(this)), m_totals(new QLabel(this)), m_showUnchanged(new QCheckBox(tr("Show unchanged nodes"), this))
{
    setWindowTitle(tr("%1 ↔ %2 — Costscope diff").arg(m_a.name, m_b.name));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(1400, 900);

    auto* canvases = new QSplitter(Qt::Horizontal, this);
    for (auto [view, name] : {std::pair{m_viewA, m_a.name}, std::pair{m_viewB, m_b.name}}) {
        auto* pane = new QWidget(canvases);
        auto* layout = new QVBoxLayout(pane);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()), pane));
        view->setParent(pane);
        layout->addWidget(view, 1);
        canvases->addWidget(pane);
    }
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels({tr("Status"), tr("In A"), tr("In B"), tr("Cost A"), tr("Cost B"), tr("Δ")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary->setWordWrap(false);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    auto* row = new QHBoxLayout;
    row->addWidget(m_summary);
    row->addSpacing(24);
    row->addWidget(m_totals, 1);
    row->addWidget(m_showUnchanged);
    row->addWidget(new QLabel(tr("Device"), bottom));
    row->addWidget(m_device);
    bottomLayout->addLayout(row);
    bottomLayout->addWidget(m_table, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(canvases);
    split->addWidget(bottom);
    split->setSizes({600, 300});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    m_sceneA->setGraph(m_a.graph);
    m_sceneB->setGraph(m_b.graph);
    markNodes();
    for (auto* scene : {m_sceneA, m_sceneB})
        connect(scene, &GraphScene::layoutFinished, this,
                [view = scene == m_sceneA ? m_viewA : m_viewB] { view->fitAll(); });
    m_summary->setText(summaryText());
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        m_totals->setText(totalsText());
        fillTable();
    });
    connect(m_showUnchanged, &QCheckBox::toggled, this, &DiffWindow::fillTable);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) { selectRow(row); });

    if (!provider) {
        m_totals->setText(tr("No cost model: only the structure is compared."));
        return;
    }
    std::vector<std::string> names;
    for (const QString& d : devices)
        names.push_back(d.toStdString());
    auto* job = new JobTracker(this);
    job->start([a = m_a.graph, b = m_b.graph, d = m_diff, provider, request,
                names] { return computeCostDiff(*a, *b, d, provider, request, names); },
               [this, current = request.device](std::vector<DeviceCostDiff> costs) {
                   m_costs = std::move(costs);
                   const QSignalBlocker block(m_device);
                   for (const DeviceCostDiff& c : m_costs)
                       m_device->addItem(QString::fromStdString(c.device));
                   m_device->setCurrentText(QString::fromStdString(current));
                   m_totals->setText(totalsText());
                   QStringList all; // every device at a glance, in the tooltip
                   for (int i = 0; i < m_device->count(); ++i) {
                       const QSignalBlocker pick(m_device);
                       m_device->setCurrentIndex(i);
                       all << totalsText();
                   }
                   m_device->setCurrentText(QString::fromStdString(current));
                   m_totals->setToolTip(all.join(QLatin1Char('\n')));
                   fillTable();
                   emit costsReady();
               });
}

void DiffWindow::markNodes()
{
    std::map<NodeId, QColor> marksA, marksB;
    for (std::size_t i : m_diff.removed)
        marksA[m_a.graph->nodes[i].id] = kRemoved;
    for (std::size_t i : m_diff.added)
        marksB[m_b.graph->nodes[i].id] = kAdded;
    for (const NodePair& p : m_diff.matched)
        if (p.changed) {
            marksA[m_a.graph->nodes[p.a].id] = kChanged;
            marksB[m_b.graph->nodes[p.b].id] = kChanged;
        }
    m_sceneA->setMarks(std::move(marksA));
    m_sceneB->setMarks(std::move(marksB));
}

QString DiffWindow::summaryText() const
{
    return tr("%1 matched (%2 changed), <span style='color:%3'>%4 removed</span>, "
              "<span style='color:%5'>%6 added</span>")
        .arg(m_diff.matched.size())
        .arg(m_diff.changedCount())
        .arg(kRemoved.name())
        .arg(m_diff.removed.size())
        .arg(kAdded.name())
        .arg(m_diff.added.size());
}

QString DiffWindow::totalsText() const
{
    if (m_costs.empty())
        return tr("Costing both graphs …");
    const int device = std::max(m_device->currentIndex(), 0);
    const DeviceCostDiff& c = m_costs[static_cast<std::size_t>(std::min<std::size_t>(device, m_costs.size() - 1))];
    const double pct = c.totalA > 0 ? 100.0 * (c.totalB - c.totalA) / c.totalA : 0.0;
    return tr("Total on %1: %2 → %3 (%4%)")
        .arg(QString::fromStdString(c.device), formatNs(c.totalA), formatNs(c.totalB))
        .arg((pct > 0 ? QStringLiteral("+") : QString()) + QString::number(pct, 'f', 1));
}

void DiffWindow::fillTable()
{
    m_table->setRowCount(0);
    const int device = m_device->currentIndex();
    if (device < 0 || static_cast<std::size_t>(device) >= m_costs.size())
        return;
    std::map<std::size_t, const NodePair*> changedOfA;
    for (const NodePair& p : m_diff.matched)
        if (p.changed)
            changedOfA[p.a] = &p;
    std::vector<NodeCostDelta> rows;
    for (const NodeCostDelta& n : m_costs[static_cast<std::size_t>(device)].nodes)
        if (m_showUnchanged->isChecked() || !n.a || !n.b || changedOfA.count(*n.a) || n.delta() != 0)
            rows.push_back(n);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const NodeCostDelta& x, const NodeCostDelta& y) { return std::abs(x.delta()) > std::abs(y.delta()); });
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const NodeCostDelta& n = rows[static_cast<std::size_t>(r)];
        QString status = !n.a ? tr("added") : !n.b ? tr("removed") : tr("same");
        QString tip;
        if (n.a && n.b)
            if (auto it = changedOfA.find(*n.a); it != changedOfA.end()) {
                status = tr("changed");
                tip = QString::fromStdString(it->second->what);
            }
        const QStringList cells{status,
                                n.a ? nodeLabel(*m_a.graph, *n.a) : QString(),
                                n.b ? nodeLabel(*m_b.graph, *n.b) : QString(),
                                n.a ? formatNs(n.costA) : QString(),
                                n.b ? formatNs(n.costB) : QString(),
                                signedNs(n.delta())};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(tip);
            if (c == 0) {
                item->setData(Qt::UserRole, n.a ? static_cast<qlonglong>(*n.a) : -1);
                item->setData(Qt::UserRole + 1, n.b ? static_cast<qlonglong>(*n.b) : -1);
                item->setForeground(status == tr("added")     ? kAdded
                                    : status == tr("removed") ? kRemoved
                                    : status == tr("changed") ? kChanged
                                                              : palette().color(QPalette::Text));
            }
            m_table->setItem(r, c, item);
        }
    }
}

void DiffWindow::selectRow(int row)
{
    if (row < 0 || !m_table->item(row, 0))
        return;
    const qlonglong a = m_table->item(row, 0)->data(Qt::UserRole).toLongLong();
    const qlonglong b = m_table->item(row, 0)->data(Qt::UserRole + 1).toLongLong();
    for (auto [scene, view, index] : {std::tuple{m_sceneA, m_viewA, a}, std::tuple{m_sceneB, m_viewB, b}}) {
        scene->clearSelection();
        if (index >= 0 && scene->selectNode(static_cast<std::size_t>(index)))
            if (NodeItem* item = scene->itemForNode(static_cast<std::size_t>(index)))
                view->centerOn(item);
    }
}

} // namespace costscope
