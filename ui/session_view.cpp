// SPDX-License-Identifier: MIT
#include "session_view.h"

#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"

#include <QAction>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace costscope {

namespace {
constexpr const char* kViewFlags[] = {"actionShowParams", "actionLeftToRight"};
}

void storeSessionView(const SessionViewParts& window, CostscopeDocument& doc)
{
    QJsonObject view;
    view[QStringLiteral("overlay")] = window.overlaySelector->currentText();
    for (const char* name : kViewFlags)
        if (const auto* action = window.actions->findChild<QAction*>(QLatin1String(name)))
            view[QLatin1String(name)] = action->isChecked();
    view[QStringLiteral("zoom")] = window.canvas->zoom();
    QJsonArray collapsed;
    for (const std::string& path : window.scene->collapsedGroups())
        collapsed.append(QString::fromStdString(path));
    view[QStringLiteral("collapsed_groups")] = collapsed;
    doc.view = RawJson{QJsonDocument(view).toJson(QJsonDocument::Compact).toStdString()};
    doc.positions.clear();
    if (const Graph* g = window.scene->graph())
        for (std::size_t i = 0; i < g->nodes.size(); ++i)
            if (const NodeItem* item = window.scene->itemForNode(i))
                doc.positions[g->nodes[i].id] = {item->pos().x(), item->pos().y()};
}

bool restoreSessionView(const SessionViewParts& window, const CostscopeDocument& doc)
{
    const QJsonObject view = QJsonDocument::fromJson(QByteArray::fromStdString(doc.view.text)).object();
    if (const QString overlay = view.value(QStringLiteral("overlay")).toString(); !overlay.isEmpty())
        if (const int i = window.overlaySelector->findText(overlay); i >= 0)
            window.overlaySelector->setCurrentIndex(i);
    for (const char* name : kViewFlags)
        if (auto* action = window.actions->findChild<QAction*>(QLatin1String(name));
            action && view.contains(QLatin1String(name)))
            action->setChecked(view.value(QLatin1String(name)).toBool());
    if (view.contains(QStringLiteral("collapsed_groups"))) {
        std::vector<std::string> paths;
        for (const QJsonValue& v : view.value(QStringLiteral("collapsed_groups")).toArray())
            paths.push_back(v.toString().toStdString());
        window.scene->setCollapsedGroups(paths);
    }
    const double zoom = view.value(QStringLiteral("zoom")).toDouble();
    if (zoom > 0)
        window.canvas->zoomBy(zoom / window.canvas->zoom());
    return zoom > 0;
}

} // namespace costscope
