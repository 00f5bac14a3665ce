// SPDX-License-Identifier: MIT
#pragma once
// Table cells of the Run panel's tables: formatted text over the number it shows (kTableValueRole), which is also
// what sorting uses.
#include <QStringList>
#include <Qt>

class QTableWidget;
class QTableWidgetItem;

namespace costscope {

constexpr int kTableValueRole = Qt::UserRole + 1;

QTableWidgetItem* valueItem(const QString& text, double value);
QTableWidgetItem* nsItem(double ns);           // "1.23 ms"
QTableWidgetItem* percentItem(double percent); // "+12.3 %"
// Read-only, sortable by the numbers, headers fitted to their contents.
QTableWidget* makeTable(int columns, const QStringList& headers);

} // namespace costscope
