// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/cost_job.h"

#include <QFuture>
#include <QString>

class QMenu;

namespace costscope {

class MainWindow;

// Adds File → Export… (report as HTML, PDF, CSV, JSON, Model Explorer node data; diagram as SVG or PNG).
void addExportMenu(MainWindow* window, QMenu* fileMenu);

// Writes the report of `g` for the toolbar's model, device and bindings; the format is the path's extension
// ("html", "pdf", "csv", "json", "svg", "png"; "node-data" for a name ending in .nodedata.json). Empty on success.
QString exportReport(const Graph& g, const QString& source, const CostRequest& request, const QString& path);
// File → Export's work: the open graph's report under the window's analysis settings (every binding, the model,
// the device, the RLX version), written on a worker thread; the future's result is the error, empty on success.
QFuture<QString> exportInBackground(const MainWindow* window, const QString& path);

} // namespace costscope
