// SPDX-License-Identifier: MIT
#include "panels/bindings_editor.h"
#include "analysis_settings_owner.h"
#include "ir/graph_summary.h"
#include <QFormLayout>
#include <QSpinBox>

namespace costscope {

BindingsEditor::BindingsEditor(QWidget* parent) : QWidget(parent), m_form(new QFormLayout(this))
{
    addSymbol("batch", 1);
}

QSpinBox* BindingsEditor::addSymbol(const std::string& symbol, std::int64_t value)
{
    auto* spin = new QSpinBox(this);
    spin->setObjectName(QStringLiteral("binding_%1").arg(QString::fromStdString(symbol)));
    spin->setRange(1, kMaxBinding);
    spin->setValue(static_cast<int>(value));
    spin->setToolTip(tr("Value of the symbol '%1'").arg(QString::fromStdString(symbol)));
    connect(spin, &QSpinBox::valueChanged, this, &BindingsEditor::bindingsChanged);
    m_form->addRow(QString::fromStdString(symbol), spin);
    m_spins[symbol] = spin;
    return spin;
}

void BindingsEditor::setGraph(const Graph* graph)
{
    // Values of symbols the new graph shares with the old one are kept: switching between models of one family
    // should not reset "seq" or "batch".
    std::map<std::string, std::int64_t> previous;
    for (const auto& [name, spin] : m_spins)
        previous[name] = spin->value();
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_spins.clear();
    std::vector<std::string> symbols = {"batch"};
    if (graph)
        for (const auto& s : summarize(*graph).symbols)
            if (s != "batch")
                symbols.push_back(s);
    for (const auto& s : symbols) {
        const auto it = previous.find(s);
        addSymbol(s, it != previous.end() ? it->second : 1);
    }
}

Bindings BindingsEditor::bindings() const
{
    Bindings b;
    for (const auto& [name, spin] : m_spins)
        b[name] = spin->value();
    return b;
}

void BindingsEditor::setValue(const std::string& symbol, std::int64_t value)
{
    if (QSpinBox* spin = spinFor(symbol))
        spin->setValue(static_cast<int>(value));
}

QSpinBox* BindingsEditor::spinFor(const std::string& symbol) const
{
    const auto it = m_spins.find(symbol);
    return it == m_spins.end() ? nullptr : it->second;
}

} // namespace costscope
