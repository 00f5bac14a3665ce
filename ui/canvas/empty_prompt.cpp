// SPDX-License-Identifier: MIT
#include "canvas/empty_prompt.h"
#include "recent_files.h"
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace costscope {

EmptyCanvasPrompt::EmptyCanvasPrompt(QWidget* viewport) : QFrame(viewport), m_open(new QPushButton(tr("Open…"), this))
{
    setObjectName(QStringLiteral("emptyCanvasPrompt"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setAcceptDrops(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 20, 24, 20);
    auto* title = new QLabel(tr("<h3>Open a graph to see where its time goes</h3>"), this);
    layout->addWidget(title);
    m_open->setObjectName(QStringLiteral("promptOpen"));
    m_open->setDefault(true);
    connect(m_open, &QPushButton::clicked, this, &EmptyCanvasPrompt::openRequested);
    layout->addWidget(m_open);
    auto* drop =
        new QLabel(tr("or drop an ONNX model, an RLX HIR JSON or a .costscope file anywhere on this window"), this);
    drop->setObjectName(QStringLiteral("promptDropHint"));
    drop->setWordWrap(true);
    layout->addWidget(drop);
    layout->addSpacing(8);
    layout->addWidget(new QLabel(tr("<b>Recent</b>"), this));
    m_recent = new QVBoxLayout;
    m_recent->setSpacing(0);
    layout->addLayout(m_recent);
    layout->addSpacing(8);
    layout->addWidget(new QLabel(tr("<b>Start from a template</b>"), this));
    auto* templates = new QHBoxLayout;
    for (const edit::TemplateInfo& t : edit::graphTemplates()) {
        auto* b = new QPushButton(QString::fromStdString(t.title), this);
        b->setToolTip(QString::fromStdString(t.description));
        connect(b, &QPushButton::clicked, this, [this, id = t.id] { emit templateChosen(id); });
        templates->addWidget(b);
        m_templateButtons << b;
    }
    layout->addLayout(templates);
    setRecentFiles({});
    viewport->installEventFilter(this);
}

void EmptyCanvasPrompt::setRecentFiles(const QStringList& paths)
{
    m_recentButtons.clear();
    while (QLayoutItem* item = m_recent->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const QString& path : paths.mid(0, kShownRecent)) {
        auto* b = new QPushButton(recentFileLabel(path, paths), this);
        b->setFlat(true);
        b->setToolTip(path);
        b->setStyleSheet(QStringLiteral("text-align: left"));
        connect(b, &QPushButton::clicked, this, [this, path] { emit recentChosen(path); });
        m_recent->addWidget(b);
        m_recentButtons << b;
    }
    if (paths.isEmpty())
        m_recent->addWidget(new QLabel(tr("<i>none yet</i>"), this));
    adjustSize();
    recentre();
}

bool EmptyCanvasPrompt::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        recentre();
    return false;
}

void EmptyCanvasPrompt::recentre()
{
    const QSize size = sizeHint().boundedTo(parentWidget()->size());
    setGeometry(QRect(
        QPoint((parentWidget()->width() - size.width()) / 2, (parentWidget()->height() - size.height()) / 2), size));
}

} // namespace costscope
