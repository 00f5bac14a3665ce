// SPDX-License-Identifier: MIT
#include "panels/value_items.h"
#include "canvas/overlay_model.h"
#include <QHeaderView>
#include <QTableWidget>

namespace costscope {

namespace {
// Sorts by the number behind the text, not by the text.
class ValueItem : public QTableWidgetItem {
public:
    ValueItem(const QString& text, double value) : QTableWidgetItem(text)
    {
        setData(kTableValueRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(kTableValueRole).toDouble() < other.data(kTableValueRole).toDouble();
    }
};
} // namespace

QTableWidgetItem* valueItem(const QString& text, double value)
{
    return new ValueItem(text, value);
}

QTableWidgetItem* nsItem(double ns)
{
    return valueItem(formatNs(ns), ns);
}

QTableWidgetItem* percentItem(double percent)
{
    const QString sign = percent > 0 ? QStringLiteral("+") : QString();
    return valueItem(QStringLiteral("%1%2 %").arg(sign).arg(percent, 0, 'f', 1), percent);
}

QTableWidget* makeTable(int columns, const QStringList& headers)
{
    auto* t = new QTableWidget(0, columns);
    t->setHorizontalHeaderLabels(headers);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    return t;
}

} // namespace costscope
