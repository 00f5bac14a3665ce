// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/cost_job.h"

#include <QFuture>
#include <QString>

#include <functional>

class QMainWindow;
class QMenu;

namespace costscope {

class OpenGraphFeed;

// Adds File → Export… (report as HTML, PDF, CSV, JSON, Model Explorer node data; diagram as SVG or PNG) to the menu
// of `window` for the open graph of `feed`; `currentFile` names the graph's file (the report's source).
void addExportMenu(QMainWindow* window, QMenu* fileMenu, const OpenGraphFeed* feed,
                   std::function<QString()> currentFile);

// Writes the report of `g` for the toolbar's model, device and bindings; the format is the path's extension
// ("html", "pdf", "csv", "json", "svg", "png"; "node-data" for a name ending in .nodedata.json). Empty on success.
QString exportReport(const Graph& g, const QString& source, const CostRequest& request, const QString& path);
// File → Export's work: the open graph's report under its analysis settings (every binding, the model, the device,
// the RLX version, the precision what-if), written on a worker thread; the future's result is the error, empty on
// success. `source` is the graph's file.
QFuture<QString> exportInBackground(const OpenGraphFeed* feed, const QString& source, const QString& path);
// That work, with the settings and the graph taken now, to run on a worker thread (File → Export runs it as a job).
std::function<QString()> exportJob(const OpenGraphFeed* feed, const QString& source, const QString& path);

} // namespace costscope
