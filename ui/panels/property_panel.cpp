// SPDX-License-Identifier: MIT
#include "panels/property_panel.h"
#include "canvas/group_tree.h"
#include "canvas/overlay_model.h"
#include <QHeaderView>

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

void row(QTreeWidgetItem* parent, const QString& key, const QString& value)
{
    auto* item = new QTreeWidgetItem(parent, {key, value});
    item->setToolTip(1, value);
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
}

void PropertyPanel::showNode(const Graph* graph, int nodeIndex, const GraphCost* cost)
{
    clear();
    if (!graph || nodeIndex < 0 || static_cast<std::size_t>(nodeIndex) >= graph->nodes.size())
        return;
    const auto idx = static_cast<std::size_t>(nodeIndex);
    const Node& n = graph->nodes[idx];
    auto* node = section(this, tr("Node"));
    row(node, tr("id"), QString::number(n.id));
    row(node, tr("name"), QString::fromStdString(n.displayName()));
    row(node, tr("op"), QString::fromStdString(n.op.label()));
    row(node, tr("class"), QString::fromStdString(std::string(opClassName(n.op.info().opClass))));
    row(node, tr("group"), QString::fromStdString(effectiveScope(*graph, idx)));
    if (n.op.kind == OpKind::Unknown)
        row(node, tr("payload"), QString::fromStdString(n.op.unknownPayload));

    auto* attrs = section(this, tr("Attributes"));
    for (const auto& [key, value] : n.op.attrs.entries())
        row(attrs, QString::fromStdString(key), QString::fromStdString(attrToString(value)));
    if (n.op.attrs.empty())
        row(attrs, tr("(none)"), QString());

    auto* inputs = section(this, tr("Inputs"));
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        const Node* src = graph->find(n.inputs[i]);
        const QString who = src ? QStringLiteral("#%1 %2").arg(src->id).arg(QString::fromStdString(
                                      src->displayName().empty() ? src->op.label() : src->displayName()))
                                : QStringLiteral("#%1 (missing)").arg(n.inputs[i]);
        row(inputs, QStringLiteral("%1: %2").arg(i).arg(who), src ? QString::fromStdString(src->shape.toString()) : QString());
    }
    auto* output = section(this, tr("Output"));
    row(output, tr("shape"), QString::fromStdString(n.shape.toString()));
    const auto bytes = n.shape.bytes();
    row(output, tr("bytes"), bytes ? formatBytes(static_cast<double>(*bytes)) : tr("depends on symbols"));
    row(output, tr("graph output"), graph->isOutput(n.id) ? tr("yes") : tr("no"));

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
