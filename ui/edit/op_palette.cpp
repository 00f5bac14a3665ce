// SPDX-License-Identifier: MIT
#include "edit/op_palette.h"
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QVBoxLayout>

namespace costscope {
namespace {

// The list hands a drag the op's catalogue name under OpPalette's MIME type.
class OpList : public QListWidget {
public:
    using QListWidget::QListWidget;

protected:
    QStringList mimeTypes() const override { return {QString::fromLatin1(OpPalette::mimeType())}; }
    QMimeData* mimeData(const QList<QListWidgetItem*>& items) const override
    {
        if (items.isEmpty())
            return nullptr;
        auto* mime = new QMimeData;
        mime->setData(QString::fromLatin1(OpPalette::mimeType()), items.front()->data(Qt::UserRole + 1).toByteArray());
        return mime;
    }
};

} // namespace

OpPalette::OpPalette(QWidget* parent) : QWidget(parent), m_filter(new QLineEdit(this)), m_list(new OpList(this))
{
    m_filter->setPlaceholderText(tr("Search ops (name or class)…"));
    m_filter->setClearButtonEnabled(true);
    m_list->setDragEnabled(true);
    m_list->setDragDropMode(QAbstractItemView::DragOnly);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    for (const OpInfo& info : opCatalogue()) {
        if (info.kind == OpKind::Unknown)
            continue;
        const QString name = QString::fromLatin1(info.name.data(), static_cast<int>(info.name.size()));
        const QString cls = QString::fromLatin1(opClassName(info.opClass).data(), static_cast<int>(opClassName(info.opClass).size()));
        auto* item = new QListWidgetItem(QStringLiteral("%1  ·  %2").arg(name, cls), m_list);
        item->setData(Qt::UserRole, static_cast<int>(info.kind));
        item->setData(Qt::UserRole + 1, name.toLatin1());
        item->setToolTip(tr("%1 (%2): %3 input(s)")
                             .arg(name, cls,
                                  info.maxInputs < 0 ? QStringLiteral("%1+").arg(info.minInputs)
                                  : info.minInputs == info.maxInputs
                                      ? QString::number(info.minInputs)
                                      : QStringLiteral("%1–%2").arg(info.minInputs).arg(info.maxInputs)));
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filter);
    layout->addWidget(m_list, 1);
    connect(m_filter, &QLineEdit::textChanged, this, &OpPalette::applyFilter);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        for (int i = 0; i < m_list->count(); ++i)
            if (!m_list->item(i)->isHidden()) {
                emit opActivated(static_cast<OpKind>(m_list->item(i)->data(Qt::UserRole).toInt()));
                return;
            }
    });
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit opActivated(static_cast<OpKind>(item->data(Qt::UserRole).toInt()));
    });
}

void OpPalette::applyFilter(const QString& text)
{
    for (int i = 0; i < m_list->count(); ++i)
        m_list->item(i)->setHidden(!m_list->item(i)->text().contains(text.trimmed(), Qt::CaseInsensitive));
}

int OpPalette::visibleCount() const
{
    int n = 0;
    for (int i = 0; i < m_list->count(); ++i)
        n += !m_list->item(i)->isHidden();
    return n;
}

} // namespace costscope
