// SPDX-License-Identifier: MIT
#pragma once
#include "formats/graph_file.h"
#include "jobs/job_tracker.h"
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

namespace costscope {

// Loads a graph file on a worker thread; a result for an older request than the latest is dropped.
class LoadJob : public QObject {
    Q_OBJECT
public:
    explicit LoadJob(QObject* parent = nullptr);
    void start(const QString& path);

signals:
    void loaded(const QString& path, std::shared_ptr<const costscope::Graph> graph);
    // Right after loaded, for a .costscope file: what it saved beside the graph (settings, view, positions).
    void sessionLoaded(const QString& path, std::shared_ptr<const costscope::CostscopeDocument> session);
    // Right after loaded, when the reader warned (an unknown op kept as written, a stated shape that disagrees):
    // each warning formatted with the file's name, as costscope-cli prints them.
    void warned(const QString& path, const QStringList& warnings);
    void failed(const QString& path, const QString& message);

private:
    JobTracker m_job;
};

} // namespace costscope
