// SPDX-License-Identifier: MIT
#include "panels/top_nodes_panel.h"
#include "open_graph_feed.h"
#include "panel_dock.h"
#include "panels/top_nodes_model.h"
#include "panels/value_items.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace costscope {

TopNodesPanel::TopNodesPanel(QWidget* parent)
    : QWidget(parent), m_model(new TopNodesModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView(this)), m_count(new QSpinBox(this)), m_ranking(new QComboBox(this)),
      m_classes(
          makeTable(ClassColumnCount, {tr("Op class"), tr("Nodes"), tr("Predicted"), tr("Share"), tr("Cumulative")}))
{
    m_count->setRange(1, 1000);
    m_count->setValue(10);
    m_count->setToolTip(tr("How many of the costliest nodes to list"));
    m_ranking->addItem(tr("Predicted"), static_cast<int>(TopRanking::Predicted));
    m_ranking->addItem(tr("Measured"), static_cast<int>(TopRanking::Measured));
    m_ranking->setToolTip(tr("Rank by the prediction, or by the last run's measurement"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(TopNodesModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(TopNodesModel::Rank, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(TopNodesModel::Name, QHeaderView::Stretch);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Top")));
    controls->addWidget(m_count);
    controls->addWidget(new QLabel(tr("by")));
    controls->addWidget(m_ranking);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(controls);
    auto* tabs = new QTabWidget;
    tabs->addTab(m_view, tr("Nodes"));
    tabs->addTab(m_classes, tr("Op classes"));
    m_classes->setSortingEnabled(true);
    m_classes->sortByColumn(ClassPredicted, Qt::DescendingOrder); // costliest first until the user sorts otherwise
    layout->addWidget(tabs, 1);
    connect(m_count, &QSpinBox::valueChanged, this, &TopNodesPanel::refresh);
    connect(m_ranking, &QComboBox::currentIndexChanged, this, &TopNodesPanel::refresh);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& index) {
        emit nodeSelected(index.data(TopNodesModel::NodeIdRole).toLongLong());
    });
    refresh();
}

void TopNodesPanel::setCost(std::shared_ptr<const Graph> graph, std::shared_ptr<const GraphCost> cost)
{
    if (graph != m_graph)
        m_measured.clear();
    m_graph = cost ? std::move(graph) : nullptr;
    m_cost = std::move(cost);
    refresh();
}

void TopNodesPanel::setMeasured(std::vector<std::optional<double>> measuredNs)
{
    m_measured = std::move(measuredNs);
    refresh();
}

void TopNodesPanel::refresh()
{
    const bool measured = !m_measured.empty();
    if (!measured)
        m_ranking->setCurrentIndex(0);
    m_ranking->setEnabled(measured);
    m_view->setColumnHidden(TopNodesModel::Measured, !measured);
    m_view->setColumnHidden(TopNodesModel::MeasuredShare, !measured);
    const auto by = static_cast<TopRanking>(m_ranking->currentData().toInt());
    m_model->setTop(m_graph, m_cost ? topNodes(*m_cost, m_measured, static_cast<std::size_t>(m_count->value()), by)
                                    : TopNodes{});
    showOpClasses();
}

void TopNodesPanel::showOpClasses()
{
    m_classes->setSortingEnabled(false);
    const auto classes = m_cost && m_graph ? opClassShares(*m_graph, *m_cost) : std::vector<OpClassShare>{};
    m_classes->setRowCount(static_cast<int>(classes.size()));
    for (int row = 0; row < m_classes->rowCount(); ++row) {
        const OpClassShare& c = classes[static_cast<std::size_t>(row)];
        const std::string_view name = opClassName(c.opClass);
        m_classes->setItem(row, ClassName,
                           new QTableWidgetItem(QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()))));
        m_classes->setItem(row, ClassNodes, valueItem(QString::number(c.nodes), static_cast<double>(c.nodes)));
        m_classes->setItem(row, ClassPredicted, nsItem(c.predictedNs));
        m_classes->setItem(row, ClassShare, percentItem(100 * c.share));
        m_classes->setItem(row, ClassCumulative, percentItem(100 * c.cumulativeShare));
    }
    m_classes->setSortingEnabled(true);
}

TopNodesPanel* installTopNodesDock(QMainWindow* window, OpenGraphFeed* feed)
{
    auto* panel = new TopNodesPanel(window);
    addPanelDock(window, panel, QObject::tr("Top nodes"), QStringLiteral("topNodesDock"), Qt::BottomDockWidgetArea,
                 QStringLiteral("nodesDock"));
    QObject::connect(feed, &OpenGraphFeed::costsUpdated, panel, [feed, panel] {
        const GraphCost* cost = feed->overlay().cost();
        panel->setCost(feed->graph(), cost ? std::make_shared<const GraphCost>(*cost) : nullptr);
    });
    QObject::connect(feed, &OpenGraphFeed::graphChanged, panel, [panel] { panel->setCost(nullptr, nullptr); });
    QObject::connect(feed, &OpenGraphFeed::measuredChanged, panel,
                     [feed, panel] { panel->setMeasured(feed->overlay().measured()); });
    QObject::connect(panel, &TopNodesPanel::nodeSelected, feed, &OpenGraphFeed::selectNodeRequested);
    return panel;
}

} // namespace costscope
