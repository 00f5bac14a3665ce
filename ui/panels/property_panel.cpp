// SPDX-License-Identifier: MIT
#include "panels/property_panel.h"
#include "analysis/fused_kernel.h"
#include "ir/fused_op.h"
#include "canvas/group_tree.h"
#include "canvas/overlay_model.h"
#include <QHeaderView>
#include <QSignalBlocker>

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
    if (column != 1 || m_node < 0 || !item->data(0, kEditRole).isValid())
        return;
    const QString text = item->text(1);
    switch (static_cast<Edit>(item->data(0, kEditRole).toInt())) {
    case Edit::Name: emit renameRequested(m_node, text); break;
    case Edit::Attribute: emit attributeEdited(m_node, item->data(0, kKeyRole).toString(), text); break;
    case Edit::Shape: emit shapeEdited(m_node, text); break;
    case Edit::Output: emit outputToggled(m_node, text.trimmed().toLower() == tr("yes") || text.trimmed() == QLatin1String("true")); break;
    case Edit::NewAttribute: {
        const qsizetype eq = text.indexOf(QLatin1Char('='));
        if (eq > 0)
            emit attributeEdited(m_node, text.left(eq).trimmed(), text.mid(eq + 1));
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

void PropertyPanel::showNode(const Graph* graph, int nodeIndex, const GraphCost* cost, const QString& problem)
{
    const QSignalBlocker block(this); // building rows is not editing them
    clear();
    m_node = -1;
    if (!graph || nodeIndex < 0 || static_cast<std::size_t>(nodeIndex) >= graph->nodes.size())
        return;
    const auto idx = static_cast<std::size_t>(nodeIndex);
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
