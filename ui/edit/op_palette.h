// SPDX-License-Identifier: MIT
#pragma once
#include "ir/op.h"
#include <QWidget>

class QLineEdit;
class QListWidget;

namespace costscope {

// Every catalogued op, searchable by name or class. Drag one onto the canvas to add it (dropped on a node, it reads
// that node's output); a double-click or Enter adds it after the selected node.
class OpPalette : public QWidget {
    Q_OBJECT
public:
    static const char* mimeType() { return "application/x-costscope-op"; }
    explicit OpPalette(QWidget* parent = nullptr);

    QLineEdit* filter() const { return m_filter; }
    QListWidget* list() const { return m_list; }
    int visibleCount() const;

signals:
    void opActivated(costscope::OpKind kind);

private:
    void applyFilter(const QString& text);
    QLineEdit* m_filter;
    QListWidget* m_list;
};

} // namespace costscope
