// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/cost_job.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

class QGraphicsScene;
class QMainWindow;
class QMenu;

namespace costscope {

class OpenGraphFeed;

// What the user chose for a report beyond the analysis settings.
struct ReportChoices {
    // The devices costed, the toolbar's first; empty: the toolbar's and RLX's Cpu, Cuda and Gpu.
    std::vector<std::string> devices;
    // The canvas drawn as SVG (canvasSvg()): the report's diagram, as the user saw it; empty: laid out anew.
    std::string canvasSvg;
};

// Adds File → Export… (report as HTML, PDF, CSV, JSON, Model Explorer node data; diagram as SVG or PNG) to the menu
// of `window` for the open graph of `feed`; `currentFile` names the graph's file (the report's source). A report
// asks which devices it covers (ReportDevicesDialog); its diagram is `canvas` as drawn, when given.
void addExportMenu(QMainWindow* window, QMenu* fileMenu, const OpenGraphFeed* feed,
                   std::function<QString()> currentFile, const QGraphicsScene* canvas = nullptr);

// The scene's items drawn into an SVG document (its whole scene rect, at zoom 1). Call on the GUI thread.
std::string canvasSvg(const QGraphicsScene& scene);

// Writes the report of `g` for the toolbar's model, device and bindings; the format is the path's extension
// ("html", "pdf", "csv", "json", "svg", "png"; "node-data" for a name ending in .nodedata.json). Empty on success;
// an error names a device that has no profile.
QString exportReport(const Graph& g, const QString& source, const CostRequest& request, const QString& path,
                     const ReportChoices& choices = {});
// File → Export's work: the open graph's report under its analysis settings (every binding, the model, the device,
// the RLX version, the precision what-if), with the settings and the graph taken now, to run on a worker thread
// (File → Export runs it as a job); it returns the error, empty on success. `source` is the graph's file.
std::function<QString()> exportJob(const OpenGraphFeed* feed, const QString& source, const QString& path,
                                   ReportChoices choices = {});

} // namespace costscope
