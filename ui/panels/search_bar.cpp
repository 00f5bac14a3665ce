// SPDX-License-Identifier: MIT
#include "panels/search_bar.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QToolButton>

namespace costscope {

SearchBar::SearchBar(QWidget* parent)
    : QWidget(parent), m_edit(new QLineEdit(this)), m_mode(new QComboBox(this)), m_status(new QLabel(this))
{
    m_edit->setPlaceholderText(tr("Search nodes (Ctrl+F)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(180);
    m_mode->addItems({tr("Name or op"), tr("Name"), tr("Op"), tr("Regex")});
    auto* prev = new QToolButton(this);
    prev->setArrowType(Qt::UpArrow);
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    auto* nextButton = new QToolButton(this);
    nextButton->setArrowType(Qt::DownArrow);
    nextButton->setToolTip(tr("Next match (F3)"));
    m_status->setMinimumWidth(60);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit);
    layout->addWidget(m_mode);
    layout->addWidget(prev);
    layout->addWidget(nextButton);
    layout->addWidget(m_status);
    connect(m_edit, &QLineEdit::textChanged, this, &SearchBar::update);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &SearchBar::update);
    connect(m_edit, &QLineEdit::returnPressed, this, &SearchBar::next);
    connect(prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(nextButton, &QToolButton::clicked, this, &SearchBar::next);
}

SearchBar::Mode SearchBar::mode() const
{
    return static_cast<Mode>(m_mode->currentIndex());
}

void SearchBar::focusSearch()
{
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void SearchBar::setGraph(const Graph* graph)
{
    m_graph = graph;
    update();
}

void SearchBar::setQuery(const QString& text, Mode mode)
{
    m_mode->setCurrentIndex(static_cast<int>(mode));
    m_edit->setText(text);
    update();
}

void SearchBar::update()
{
    m_matches.clear();
    m_current = -1;
    const QString text = m_edit->text();
    if (!m_graph || text.isEmpty()) {
        m_status->clear();
        return;
    }
    const auto mode = static_cast<Mode>(m_mode->currentIndex());
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    if (mode == Mode::Regex && !re.isValid()) {
        m_status->setText(tr("bad regex"));
        return;
    }
    for (std::size_t i = 0; i < m_graph->nodes.size(); ++i) {
        const Node& n = m_graph->nodes[i];
        const QString name = QString::fromStdString(n.displayName());
        const QString op = QString::fromStdString(n.op.label());
        const bool nameHit = mode != Mode::Op && mode != Mode::Regex && name.contains(text, Qt::CaseInsensitive);
        const bool opHit = (mode == Mode::Op || mode == Mode::NameOrOp) && op.contains(text, Qt::CaseInsensitive);
        const bool hit = mode == Mode::Regex ? re.match(name).hasMatch() || re.match(op).hasMatch() : nameHit || opHit;
        if (hit)
            m_matches.push_back(m_graph->nodes[i].id);
    }
    m_status->setText(m_matches.empty() ? tr("no match") : tr("%n match(es)", nullptr, static_cast<int>(m_matches.size())));
}

void SearchBar::next() { step(1); }
void SearchBar::previous() { step(-1); }

void SearchBar::step(int delta)
{
    if (m_matches.empty())
        return;
    const int n = static_cast<int>(m_matches.size());
    m_current = m_current < 0 ? (delta > 0 ? 0 : n - 1) : ((m_current + delta) % n + n) % n;
    m_status->setText(tr("%1 of %2").arg(m_current + 1).arg(n));
    emit nodeFound(m_matches[static_cast<std::size_t>(m_current)]);
}

} // namespace costscope
