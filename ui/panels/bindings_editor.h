// SPDX-License-Identifier: MIT
#pragma once
#include "ir/graph.h"
#include <QWidget>
#include <map>

class QFormLayout;
class QSpinBox;

namespace costscope {

// One spin box per symbol of the open graph; the cost overlay reads its bindings from here. "batch" is always
// present (the toolbar's batch spin box mirrors it), other symbols appear when the graph has them.
class BindingsEditor : public QWidget {
    Q_OBJECT
public:
    explicit BindingsEditor(QWidget* parent = nullptr);
    void setGraph(const Graph* graph);
    Bindings bindings() const;
    void setValue(const std::string& symbol, std::int64_t value);
    QSpinBox* spinFor(const std::string& symbol) const; // nullptr when the graph has no such symbol

signals:
    void bindingsChanged();

private:
    QSpinBox* addSymbol(const std::string& symbol, std::int64_t value);

    QFormLayout* m_form;
    std::map<std::string, QSpinBox*> m_spins;
};

} // namespace costscope
