// SPDX-License-Identifier: MIT
#include "edit/graph_document.h"
#include "formats/costscope_document.h"
#include "formats/graph_file.h"
#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

namespace costscope {

class GraphSnapshotCommand : public QUndoCommand {
public:
    GraphSnapshotCommand(GraphDocument* doc, std::shared_ptr<const Graph> before, std::shared_ptr<const Graph> after,
                         const QString& text)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after))
    {
    }
    void redo() override { m_doc->setGraph(m_after, text()); }
    void undo() override { m_doc->setGraph(m_before, QObject::tr("Undo %1").arg(text())); }

private:
    GraphDocument* m_doc;
    std::shared_ptr<const Graph> m_before;
    std::shared_ptr<const Graph> m_after;
};

GraphDocument::GraphDocument(QObject* parent) : QObject(parent), m_stack(new QUndoStack(this))
{
    connect(m_stack, &QUndoStack::cleanChanged, this, [this] { emit modifiedChanged(isModified()); });
}

QString GraphDocument::displayName() const
{
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    return m_graph && !m_graph->name.empty() ? QString::fromStdString(m_graph->name) : tr("untitled");
}

bool GraphDocument::isModified() const { return m_forcedModified || !m_stack->isClean(); }

void GraphDocument::reset(std::shared_ptr<const Graph> graph, const QString& path, bool modified)
{
    m_graph = std::move(graph);
    m_path = path;
    m_stack->clear();
    m_forcedModified = modified;
    emit modifiedChanged(isModified());
}

bool GraphDocument::apply(const Result<Graph>& edited, const QString& text)
{
    if (!m_graph)
        return false;
    if (!edited) {
        emit editFailed(QString::fromStdString(edited.error().format(displayName().toStdString())));
        return false;
    }
    m_stack->push(new GraphSnapshotCommand(this, m_graph, std::make_shared<const Graph>(*edited), text));
    return true;
}

void GraphDocument::setGraph(std::shared_ptr<const Graph> graph, const QString& change)
{
    m_graph = std::move(graph);
    m_lastChange = change;
    emit graphChanged(m_graph);
}

Result<bool> GraphDocument::saveAs(const QString& path, const CostscopeDocument& session)
{
    if (!m_graph)
        return Diagnostic::error("nothing to save");
    CostscopeDocument doc = session;
    doc.graph = *m_graph;
    auto written = saveDocumentFile(doc, path.toStdString());
    if (!written)
        return written;
    m_path = path;
    const bool wasModified = isModified();
    m_forcedModified = false;
    m_stack->setClean();
    if (wasModified && !isModified())
        emit modifiedChanged(false);
    return true;
}

} // namespace costscope
