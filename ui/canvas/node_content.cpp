// SPDX-License-Identifier: MIT
#include "canvas/node_content.h"
#include <QStringList>

namespace costscope {

QColor opClassColour(OpClass c)
{
    switch (c) {
    case OpClass::Leaf: return QColor(0x6b, 0xb3, 0x7e);
    case OpClass::Layout: return QColor(0xa0, 0xa8, 0xb8);
    case OpClass::ElementWise: return QColor(0x5f, 0xb8, 0xc4);
    case OpClass::MatMul: return QColor(0x3a, 0x6f, 0xd8);
    case OpClass::Conv: return QColor(0x2f, 0x55, 0xb0);
    case OpClass::Pool: return QColor(0x7b, 0x8f, 0xd6);
    case OpClass::Norm: return QColor(0x9b, 0x6c, 0xd0);
    case OpClass::Reduce: return QColor(0xc8, 0x8b, 0x3a);
    case OpClass::Softmax: return QColor(0xd9, 0x7a, 0x2b);
    case OpClass::Attention: return QColor(0xd0, 0x4e, 0x8a);
    case OpClass::Spectral: return QColor(0x3d, 0xa3, 0x8f);
    case OpClass::Gather: return QColor(0x8a, 0x9a, 0x5b);
    case OpClass::Custom: return QColor(0x70, 0x70, 0x70);
    case OpClass::Unknown: break;
    }
    return QColor(0xd0, 0x3a, 0x2f);
}

QString keyAttributes(const Op& op, int maxEntries)
{
    QStringList parts;
    for (const auto& [key, value] : op.attrs.entries()) {
        if (key == "op" || std::holds_alternative<std::monostate>(value))
            continue;
        if (parts.size() == maxEntries)
            break;
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(key), QString::fromStdString(attrToString(value)));
    }
    return parts.join(QStringLiteral("  "));
}

NodeItem::Content nodeContent(const Graph& g, std::size_t index)
{
    const Node& n = g.nodes[index];
    NodeItem::Content c;
    c.accent = opClassColour(n.op.info().opClass);
    c.shape = QString::fromStdString(n.shape.toString());
    switch (n.op.kind) {
    case OpKind::Input:
        c.style = NodeItem::Style::Input;
        c.title = QStringLiteral("Input  %1").arg(QString::fromStdString(n.displayName()));
        return c;
    case OpKind::Param:
        c.style = NodeItem::Style::Param;
        c.title = QString::fromStdString(n.displayName());
        c.op = c.title.section(QLatin1Char('.'), -1); // "weight" of "h.0.attn.c_attn.weight" when zoomed out
        c.accent = QColor(0xb4, 0xba, 0xc6);
        return c;
    case OpKind::Constant:
        c.style = NodeItem::Style::Constant;
        c.title = QStringLiteral("Constant");
        c.accent = QColor(0xb4, 0xba, 0xc6);
        return c;
    case OpKind::Unknown:
        c.style = NodeItem::Style::Unknown;
        c.title = QString::fromStdString(n.op.label());
        c.detail = QStringLiteral("unknown op");
        return c;
    default:
        break;
    }
    c.title = QString::fromStdString(n.op.label());
    // A zoomed-out box says "Relu", not "Activation.Relu": the family is the stripe's colour, and the short word is
    // what still fits the box at a legible size when the graph is fitted.
    c.op = c.title.section(QLatin1Char('.'), -1);
    if (n.name)
        c.title += QStringLiteral("  ·  ") + QString::fromStdString(*n.name);
    c.detail = keyAttributes(n.op);
    return c;
}

QString aggregateLine(const GroupAggregate& a)
{
    if (!a.hasCost)
        return QStringLiteral("%1 nodes").arg(a.nodes);
    return QStringLiteral("%1 · %2 · %3 sync").arg(formatNs(a.costNs), formatBytes(static_cast<double>(a.ioBytes)))
        .arg(a.syncPoints);
}

NodeItem::Content groupContent(const GroupTree::Group& group, const GroupAggregate& aggregate)
{
    NodeItem::Content c;
    c.style = NodeItem::Style::Group;
    c.title = QStringLiteral("▸ %1").arg(QString::fromStdString(group.label.empty() ? group.path : group.label));
    c.op = c.title;
    c.detail = aggregateLine(aggregate);
    c.shape = aggregate.hasCost ? QStringLiteral("%1 nodes  ·  %2").arg(aggregate.nodes).arg(QString::fromStdString(group.path))
                                : QString::fromStdString(group.path);
    c.accent = QColor(0x4a, 0x5d, 0x80);
    return c;
}

QString edgeTooltip(const Graph& g, std::size_t sourceNode, int multiplicity)
{
    const Node& n = g.nodes[sourceNode];
    const auto bytes = n.shape.bytes();
    QString text = QStringLiteral("%1\n%2 · %3")
                       .arg(QString::fromStdString(n.displayName().empty() ? n.op.label() : n.displayName()),
                            QString::fromStdString(n.shape.toString()),
                            bytes ? formatBytes(static_cast<double>(*bytes)) : QStringLiteral("size depends on symbols"));
    if (multiplicity > 1)
        text += QStringLiteral("\n(+%1 more tensors between these groups)").arg(multiplicity - 1);
    return text;
}

} // namespace costscope
