// SPDX-License-Identifier: MIT
#include "edit/graph_editor.h"
#include "edit/fuse_nodes.h"
#include "edit/graph_document.h"
#include "edit/graph_edits.h"
#include "formats/rlx_json.h"
#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <set>

namespace costscope {
namespace {

const QString kNodesMime = QStringLiteral("application/x-costscope-nodes");

QString opTitle(const Graph& g, NodeId id)
{
    const Node* n = g.find(id);
    if (!n)
        return QStringLiteral("#%1").arg(id);
    const std::string name = n->displayName();
    return QString::fromStdString(name.empty() ? n->op.label() : name);
}

// "input", "input1", ...: the first leaf name not taken yet.
std::string freshLeafName(const Graph& g, const std::string& base)
{
    std::set<std::string> taken;
    for (const Node& n : g.nodes)
        taken.insert(n.displayName());
    std::string name = base;
    for (int i = 1; taken.count(name); ++i)
        name = base + std::to_string(i);
    return name;
}

Shape defaultLeafShape(OpKind kind)
{
    Shape s;
    if (kind == OpKind::Input)
        s.dims = {Dim::named("batch"), Dim::fixed(64)};
    else if (kind == OpKind::Param)
        s.dims = {Dim::fixed(64), Dim::fixed(64)};
    else
        s.dims = {Dim::fixed(1)};
    return s;
}

} // namespace

GraphEditor::GraphEditor(GraphDocument* doc, QObject* parent) : QObject(parent), m_doc(doc) {}

bool GraphEditor::apply(const Result<Graph>& edited, const QString& text)
{
    return m_doc->apply(edited, text);
}

NodeId GraphEditor::addOp(OpKind kind, std::optional<NodeId> after)
{
    if (!m_doc->graph())
        return -1;
    const Graph& g = *m_doc->graph();
    Node n;
    n.op = edit::defaultOp(kind);
    if (n.op.info().opClass == OpClass::Leaf) {
        if (n.op.attrs.has("name"))
            n.op.attrs.set("name", freshLeafName(g, n.op.attrs.stringOr("name", "x")));
        n.shape = defaultLeafShape(kind);
    } else if (after) {
        n.inputs = {*after};
    }
    NodeId id = -1;
    if (!apply(edit::addNode(g, std::move(n), &id), tr("Add %1").arg(QString::fromStdString(std::string(opInfo(kind).name)))))
        return -1;
    emit nodesCreated({id});
    return id;
}

bool GraphEditor::remove(const std::vector<NodeId>& ids)
{
    if (!m_doc->graph() || ids.empty())
        return false;
    const QString text = ids.size() == 1 ? tr("Delete %1").arg(opTitle(*m_doc->graph(), ids.front()))
                                         : tr("Delete %n node(s)", nullptr, static_cast<int>(ids.size()));
    return apply(edit::removeNodes(*m_doc->graph(), ids), text);
}

bool GraphEditor::rename(NodeId id, const QString& name)
{
    return m_doc->graph() &&
           apply(edit::rename(*m_doc->graph(), id, name.trimmed().toStdString()), tr("Rename to %1").arg(name.trimmed()));
}

bool GraphEditor::setAttribute(NodeId id, const QString& key, const QString& text)
{
    return m_doc->graph() && apply(edit::setAttribute(*m_doc->graph(), id, key.toStdString(), text.toStdString()),
                                   tr("Set %1 = %2").arg(key, text.trimmed()));
}

bool GraphEditor::setShape(NodeId id, const QString& text)
{
    return m_doc->graph() && apply(edit::setLeafShape(*m_doc->graph(), id, text.toStdString()),
                                   tr("Set shape of %1 to %2").arg(opTitle(*m_doc->graph(), id), text.trimmed()));
}

bool GraphEditor::setOutput(NodeId id, bool output)
{
    return m_doc->graph() && apply(edit::setOutput(*m_doc->graph(), id, output),
                                   output ? tr("Mark %1 as output").arg(opTitle(*m_doc->graph(), id))
                                          : tr("Unmark %1 as output").arg(opTitle(*m_doc->graph(), id)));
}

bool GraphEditor::connectNodes(NodeId from, NodeId to, int slot)
{
    return m_doc->graph() && slot >= 0 &&
           apply(edit::connect(*m_doc->graph(), from, to, static_cast<std::size_t>(slot)),
                 tr("Connect %1 → %2").arg(opTitle(*m_doc->graph(), from), opTitle(*m_doc->graph(), to)));
}

bool GraphEditor::disconnectInput(NodeId to, int slot)
{
    return m_doc->graph() && slot >= 0 &&
           apply(edit::disconnect(*m_doc->graph(), to, static_cast<std::size_t>(slot)),
                 tr("Disconnect input %1 of %2").arg(slot).arg(opTitle(*m_doc->graph(), to)));
}

bool GraphEditor::removeEdges(const std::vector<std::pair<NodeId, NodeId>>& edges)
{
    if (!m_doc->graph() || edges.empty())
        return false;
    const QString text = edges.size() == 1 ? tr("Delete edge %1 → %2")
                                                 .arg(opTitle(*m_doc->graph(), edges.front().first),
                                                      opTitle(*m_doc->graph(), edges.front().second))
                                           : tr("Delete %n edge(s)", nullptr, static_cast<int>(edges.size()));
    return apply(edit::removeEdges(*m_doc->graph(), edges), text);
}

bool GraphEditor::group(const std::vector<NodeId>& ids, const QString& name)
{
    if (!m_doc->graph() || ids.empty())
        return false;
    return apply(edit::setScope(*m_doc->graph(), ids, name.trimmed().toStdString()),
                 name.trimmed().isEmpty() ? tr("Ungroup %n node(s)", nullptr, static_cast<int>(ids.size()))
                                          : tr("Group %n node(s) as %1", nullptr, static_cast<int>(ids.size()))
                                                .arg(name.trimmed()));
}

NodeId GraphEditor::fuse(const std::vector<NodeId>& ids)
{
    if (!m_doc->graph())
        return -1;
    NodeId fused = -1;
    if (!apply(edit::fuseNodes(*m_doc->graph(), ids, &fused), tr("Fuse %n node(s)", nullptr, static_cast<int>(ids.size()))))
        return -1;
    emit nodesCreated({fused});
    return fused;
}

void GraphEditor::copy(const std::vector<NodeId>& ids) const
{
    if (!m_doc->graph() || ids.empty())
        return;
    const QByteArray json = QByteArray::fromStdString(writeRlxJson(edit::copyFragment(*m_doc->graph(), ids)));
    auto* mime = new QMimeData;
    mime->setData(kNodesMime, json);
    mime->setText(QString::fromUtf8(json));
    QGuiApplication::clipboard()->setMimeData(mime);
}

bool GraphEditor::canPaste() const
{
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    return mime && (mime->hasFormat(kNodesMime) || mime->text().trimmed().startsWith(QLatin1Char('{')));
}

bool GraphEditor::paste()
{
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    if (!m_doc->graph() || !mime)
        return false;
    const QByteArray json = mime->hasFormat(kNodesMime) ? mime->data(kNodesMime) : mime->text().toUtf8();
    auto fragment = parseRlxJson(json.toStdString());
    if (!fragment) {
        emit m_doc->editFailed(tr("The clipboard holds no graph nodes: %1")
                                   .arg(QString::fromStdString(fragment.error().format("clipboard"))));
        return false;
    }
    std::vector<NodeId> ids;
    if (!apply(edit::pasteFragment(*m_doc->graph(), *fragment, &ids),
               tr("Paste %n node(s)", nullptr, static_cast<int>(fragment->nodes.size()))))
        return false;
    emit nodesCreated(ids);
    return true;
}

} // namespace costscope
