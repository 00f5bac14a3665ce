// SPDX-License-Identifier: MIT
#include "panels/property_panel.h"
#include "analysis/fused_kernel.h"
#include "canvas/overlay_model.h"
#include "ir/fused_op.h"
#include "ir/precision.h"
#include "layout/group_tree.h"
#include <QHeaderView>
#include <QSignalBlocker>
#include <algorithm>

namespace costscope {
namespace {

QTreeWidgetItem* section(QTreeWidget* tree, const QString& title)
{
    auto* item = new QTreeWidgetItem(tree, {title});
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setFirstColumnSpanned(true);
    item->setExpanded(true);
    return item;
}

QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& key, const QString& value)
{
    auto* item = new QTreeWidgetItem(parent, {key, value});
    item->setToolTip(1, value);
    return item;
}

constexpr int kEditRole = Qt::UserRole;
constexpr int kKeyRole = Qt::UserRole + 1;

// A row whose value the user can edit in place.
QTreeWidgetItem* editableRow(QTreeWidgetItem* parent, const QString& key, const QString& value, PropertyPanel::Edit what,
                             const QString& attrKey = {})
{
    QTreeWidgetItem* item = row(parent, key, value);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    item->setData(0, kEditRole, static_cast<int>(what));
    item->setData(0, kKeyRole, attrKey);
    item->setToolTip(0, PropertyPanel::tr("Double-click the value to edit it"));
    return item;
}

} // namespace

PropertyPanel::PropertyPanel(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Property"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setRootIsDecorated(false);
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers); // only the value column is edited, on request
    connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item, int) {
        if (item->flags() & Qt::ItemIsEditable)
            editItem(item, 1);
    });
    connect(this, &QTreeWidget::itemChanged, this, &PropertyPanel::onItemChanged);
}

void PropertyPanel::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (column != 1 || !m_node || !item->data(0, kEditRole).isValid())
        return;
    const QString text = item->text(1);
    switch (static_cast<Edit>(item->data(0, kEditRole).toInt())) {
    case Edit::Name:
        emit renameRequested(*m_node, text);
        break;
    case Edit::Attribute:
        emit attributeEdited(*m_node, item->data(0, kKeyRole).toString(), text);
        break;
    case Edit::Shape:
        emit shapeEdited(*m_node, text);
        break;
    case Edit::Output:
        emit outputToggled(*m_node, text.trimmed().toLower() == tr("yes") || text.trimmed() == QLatin1String("true"));
        break;
    case Edit::NewAttribute: {
        const qsizetype eq = text.indexOf(QLatin1Char('='));
        if (eq > 0)
            emit attributeEdited(*m_node, text.left(eq).trimmed(), text.mid(eq + 1));
        break;
    }
    }
}

QTreeWidgetItem* PropertyPanel::editRow(Edit what, const QString& key) const
{
    for (int i = 0; i < topLevelItemCount(); ++i)
        for (int k = 0; k < topLevelItem(i)->childCount(); ++k) {
            QTreeWidgetItem* item = topLevelItem(i)->child(k);
            if (item->data(0, kEditRole).isValid() && item->data(0, kEditRole).toInt() == static_cast<int>(what) &&
                (key.isEmpty() || item->data(0, kKeyRole).toString() == key))
                return item;
        }
    return nullptr;
}

void PropertyPanel::showNode(const Graph* graph, std::optional<NodeId> id, const GraphCost* cost,
                             const QString& problem)
{
    const QSignalBlocker block(this); // building rows is not editing them
    clear();
    m_node.reset();
    const auto position = graph && id ? graph->indexOf(*id) : std::nullopt;
    if (!position)
        return;
    const std::size_t idx = *position;
    const Node& n = graph->nodes[idx];
    m_node = n.id;
    auto* node = section(this, tr("Node"));
    if (!problem.isEmpty()) {
        QTreeWidgetItem* item = row(node, tr("problem"), problem);
        item->setForeground(0, QColor(0xc0, 0x1f, 0x1f));
        item->setForeground(1, QColor(0xc0, 0x1f, 0x1f));
    }
    row(node, tr("id"), QString::number(n.id));
    editableRow(node, tr("name"), QString::fromStdString(n.displayName()), Edit::Name);
    row(node, tr("op"), QString::fromStdString(n.op.label()));
    const auto kernel = isFusedNode(n) ? fusedKernel(n.op) : Result<FusedKernel>(Diagnostic::error(""));
    const OpClass cls = kernel ? kernel->opClass : n.op.info().opClass;
    row(node, tr("class"), QString::fromStdString(std::string(opClassName(cls))));
    row(node, tr("group"), QString::fromStdString(effectiveScope(*graph, idx)));
    if (kernel) {
        // What the fused node is priced as, and what it holds, instead of its raw payload.
        row(node, tr("kernel"), QString::fromStdString(kernel->form));
        QStringList members;
        for (const Node& m : kernel->members.nodes)
            if (m.op.info().opClass != OpClass::Leaf)
                members << QStringLiteral("#%1 %2").arg(m.id).arg(QString::fromStdString(m.op.label()));
        row(node, tr("members"), members.join(QStringLiteral(", ")));
    } else if (n.op.kind == OpKind::Unknown) {
        row(node, tr("payload"), QString::fromStdString(n.op.unknownPayload));
    }

    auto* attrs = section(this, tr("Attributes"));
    for (const auto& [key, value] : n.op.attrs.entries())
        if (!(key == "name" && n.op.info().opClass == OpClass::Leaf)) // a leaf's name is edited above
            editableRow(attrs, QString::fromStdString(key), QString::fromStdString(attrToString(value)), Edit::Attribute,
                        QString::fromStdString(key));
    if (n.op.kind != OpKind::Unknown)
        editableRow(attrs, tr("(add)"), QString(), Edit::NewAttribute)->setToolTip(1, tr("key = value"));

    auto* inputs = section(this, tr("Inputs"));
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        const Node* src = graph->find(n.inputs[i]);
        const QString who = src ? QStringLiteral("#%1 %2").arg(src->id).arg(QString::fromStdString(
                                      src->displayName().empty() ? src->op.label() : src->displayName()))
                                : QStringLiteral("#%1 (missing)").arg(n.inputs[i]);
        row(inputs, QStringLiteral("%1: %2").arg(i).arg(who), src ? QString::fromStdString(src->shape.toString()) : QString());
    }
    auto* output = section(this, tr("Output"));
    if (n.op.info().opClass == OpClass::Leaf)
        editableRow(output, tr("shape"), QString::fromStdString(n.shape.toString()), Edit::Shape);
    else
        row(output, tr("shape"), QString::fromStdString(n.shape.toString()));
    row(output, tr("dtype"), QString::fromUtf8(dtypeName(n.shape.dtype).data()));
    if (n.op.info().opClass != OpClass::Leaf) {
        std::vector<const costscope::Shape*> inputShapes;
        for (NodeId in : n.inputs)
            inputShapes.push_back(graph->find(in) ? &graph->find(in)->shape : nullptr);
        row(output, tr("computes in"), QString::fromUtf8(precisionName(computePrecision(n, inputShapes)).data()));
    }
    const auto bytes = n.shape.bytes();
    row(output, tr("bytes"), bytes ? formatBytes(static_cast<double>(*bytes)) : tr("depends on symbols"));
    editableRow(output, tr("graph output"), graph->isOutput(n.id) ? tr("yes") : tr("no"), Edit::Output);

    if (cost && idx < cost->nodes.size()) {
        const NodeCost& c = cost->nodes[idx];
        auto* costs = section(this, tr("Cost (%1, %2)").arg(QString::fromStdString(cost->model),
                                                           QString::fromStdString(cost->profile)));
        if (c.skipped) {
            row(costs, tr("skipped"), QString::fromStdString(c.note));
        } else {
            row(costs, tr("total"), formatNs(c.totalNs));
            row(costs, tr("compute"), formatNs(c.computeNs));
            row(costs, tr("memory"), formatNs(c.memoryNs));
            row(costs, tr("dispatch"), formatNs(c.dispatchNs));
            row(costs, tr("sync"), formatNs(c.syncNs));
            row(costs, tr("bytes moved"), formatBytes(static_cast<double>(c.bytes)));
            if (!c.note.empty())
                row(costs, tr("note"), QString::fromStdString(c.note));
        }
    }
}

void PropertyPanel::showGroup(const Graph& graph, const GroupTree& tree, int group, const GraphCost* cost)
{
    const QSignalBlocker block(this);
    clear();
    m_node.reset();
    if (group < 0 || static_cast<std::size_t>(group) >= tree.groups.size())
        return;
    const GroupTree::Group& grp = tree.groups[static_cast<std::size_t>(group)];
    std::vector<bool> inside(graph.nodes.size(), false);
    for (std::size_t i : grp.allNodes)
        inside[i] = true;

    auto* head = section(this, tr("Group"));
    row(head, tr("path"), QString::fromStdString(grp.path));
    row(head, tr("nodes"), QString::number(grp.allNodes.size()));
    row(head, tr("subgroups"), QString::number(grp.children.size()));

    if (cost) {
        NodeCost sum;
        int syncs = 0, skipped = 0;
        for (std::size_t i : grp.allNodes) {
            if (i >= cost->nodes.size())
                continue;
            const NodeCost& c = cost->nodes[i];
            if (c.skipped) {
                ++skipped;
                continue;
            }
            sum.totalNs += c.totalNs;
            sum.computeNs += c.computeNs;
            sum.memoryNs += c.memoryNs;
            sum.dispatchNs += c.dispatchNs;
            sum.syncNs += c.syncNs;
            sum.bytes += c.bytes;
            syncs += c.syncNs > 0 || graph.nodes[i].op.info().hostSync ? 1 : 0;
        }
        auto* costs = section(this, tr("Cost (%1, %2)").arg(QString::fromStdString(cost->model),
                                                           QString::fromStdString(cost->profile)));
        row(costs, tr("total"), formatNs(sum.totalNs));
        if (cost->totalNs > 0)
            row(costs, tr("share"), QStringLiteral("%1 %").arg(100.0 * sum.totalNs / cost->totalNs, 0, 'f', 1));
        row(costs, tr("compute"), formatNs(sum.computeNs));
        row(costs, tr("memory"), formatNs(sum.memoryNs));
        row(costs, tr("dispatch"), formatNs(sum.dispatchNs));
        row(costs, tr("sync"), formatNs(sum.syncNs));
        row(costs, tr("sync points"), QString::number(syncs));
        row(costs, tr("bytes moved"), formatBytes(static_cast<double>(sum.bytes)));
        if (skipped > 0)
            row(costs, tr("skipped"), tr("%n node(s) need unbound symbols", nullptr, skipped));
    }

    // The tensors crossing the boundary: each outside producer read inside once, each member read outside.
    std::vector<std::size_t> entering, leaving;
    const auto users = graph.consumers();
    for (std::size_t i : grp.allNodes) {
        for (NodeId in : graph.nodes[i].inputs)
            if (auto j = graph.indexOf(in); j && !inside[*j]
                && std::find(entering.begin(), entering.end(), *j) == entering.end())
                entering.push_back(*j);
        bool out = graph.isOutput(graph.nodes[i].id);
        for (std::size_t u : users[i])
            out = out || !inside[u];
        if (out)
            leaving.push_back(i);
    }
    auto tensorBytes = [&](const std::vector<std::size_t>& nodes) {
        double total = 0;
        bool known = true;
        for (std::size_t i : nodes) {
            const auto b = graph.nodes[i].shape.bytes();
            known = known && b.has_value();
            total += static_cast<double>(b.value_or(0));
        }
        return known ? formatBytes(total) : tr("%1 + symbolic").arg(formatBytes(total));
    };
    auto* io = section(this, tr("IO"));
    row(io, tr("tensors in"), QString::number(entering.size()));
    row(io, tr("bytes in"), tensorBytes(entering));
    row(io, tr("tensors out"), QString::number(leaving.size()));
    row(io, tr("bytes out"), tensorBytes(leaving));

    auto* members = section(this, tr("Members"));
    constexpr std::size_t kShown = 200;
    for (std::size_t k = 0; k < grp.allNodes.size() && k < kShown; ++k) {
        const Node& n = graph.nodes[grp.allNodes[k]];
        const QString name = QString::fromStdString(n.displayName());
        const QString cell = cost && grp.allNodes[k] < cost->nodes.size() && !cost->nodes[grp.allNodes[k]].skipped
                               ? formatNs(cost->nodes[grp.allNodes[k]].totalNs)
                               : QString();
        row(members, QStringLiteral("#%1 %2").arg(n.id).arg(name.isEmpty() ? QString::fromStdString(n.op.label()) : name),
            cell);
    }
    if (grp.allNodes.size() > kShown)
        row(members, tr("…"), tr("%n more", nullptr, static_cast<int>(grp.allNodes.size() - kShown)));
}

QString PropertyPanel::valueOf(const QString& sectionTitle, const QString& key) const
{
    for (int i = 0; i < topLevelItemCount(); ++i) {
        const QTreeWidgetItem* s = topLevelItem(i);
        if (!s->text(0).startsWith(sectionTitle))
            continue;
        for (int k = 0; k < s->childCount(); ++k)
            if (s->child(k)->text(0) == key)
                return s->child(k)->text(1);
    }
    return {};
}

} // namespace costscope
