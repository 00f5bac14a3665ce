// SPDX-License-Identifier: MIT
#include "export_menu.h"

#include "edit/precision_transform.h"
#include "jobs/job_tracker.h"
#include "open_graph_feed.h"
#include "render/render.h"
#include "report_devices_dialog.h"
#include "usecases/report_export.h"

#include <QApplication>
#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QStatusBar>
#include <QSvgGenerator>

#include <algorithm>

namespace costscope {

namespace {

// The toolbar's device first (its costs colour the diagram when it is the pick), then the devices chosen (by
// default RLX's other devices). Names without a profile are returned in `unknown`.
std::vector<DeviceProfile> profilesFor(const std::string& current, std::vector<std::string> chosen,
                                       std::vector<std::string>& unknown)
{
    if (chosen.empty())
        chosen = {"Cpu", "Cuda", "Gpu"};
    chosen.insert(chosen.begin(), current);
    std::vector<DeviceProfile> out;
    for (const std::string& name : chosen) {
        auto p = profileForDeviceName(name);
        if (!p)
            unknown.push_back(name);
        else if (std::none_of(out.begin(), out.end(), [&](const DeviceProfile& q) { return q.name == p->name; }))
            out.push_back(std::move(*p));
    }
    return out;
}

bool drawsDiagram(const QString& path)
{
    const std::string format = reportFormatOfPath(path.toStdString());
    return format == "html" || format == "pdf" || format == "svg" || format == "png";
}

bool costsDevices(const QString& path)
{
    const std::string format = reportFormatOfPath(path.toStdString());
    return format == "html" || format == "pdf" || format == "csv" || format == "json";
}

// Text fields take Ctrl+E for themselves (end of line, in the X11 key bindings), so the Export shortcut did nothing
// while the search field or a spin box had the focus. A key press of the action's shortcut that reaches a widget of
// the window triggers the action instead (when the field did not take it, the shortcut fires as usual and no press
// arrives here).
class ShortcutOverFields : public QObject {
public:
    ShortcutOverFields(QAction* action, QWidget* window) : QObject(action), m_action(action), m_window(window)
    {
        qApp->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() != QEvent::KeyPress || !watched->isWidgetType() || !m_action->isEnabled())
            return false;
        const auto* key = static_cast<QKeyEvent*>(event);
        if (QKeySequence(key->keyCombination()) != m_action->shortcut()
            || static_cast<QWidget*>(watched)->window() != m_window)
            return false;
        m_action->trigger();
        return true;
    }

private:
    QAction* m_action;
    QWidget* m_window;
};

} // namespace

std::string canvasSvg(const QGraphicsScene& scene)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    const QRectF area = scene.sceneRect();
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(area.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), area.size()));
    svg.setTitle(QStringLiteral("Costscope canvas"));
    QPainter painter(&svg);
    painter.setRenderHint(QPainter::Antialiasing);
    const_cast<QGraphicsScene&>(scene).render(&painter, QRectF(QPointF(0, 0), area.size()), area);
    painter.end();
    return buffer.data().toStdString();
}

QString exportReport(const Graph& g, const QString& source, const CostRequest& request, const QString& path,
                     const ReportChoices& choices)
{
    const auto model = makeCostModel(request.model);
    std::vector<std::string> unknown;
    const auto profiles = profilesFor(request.device, choices.devices, unknown);
    if (!unknown.empty())
        return QObject::tr("no device profile named '%1'").arg(QString::fromStdString(unknown.front()));
    if (!model || profiles.empty())
        return QObject::tr("no cost model '%1' or device '%2'")
            .arg(QString::fromStdString(request.model), QString::fromStdString(request.device));
    auto report = buildAnalysisReport(
        g, {source.toStdString(), model.get(), profiles, request.bindings, request.rlxVersion, 10, "batch", ""});
    if (!report)
        return QString::fromStdString(report.error().message);
    report->canvasSvg = choices.canvasSvg;
    report->canvasDevice = request.device;
    // The GUI links the renderer; costscope-cli loads it as a plugin.
    static const render::RenderPlugin linked{&render::svgToPng, &render::htmlToPdf};
    auto written = writeReport(*report, reportFormatOfPath(path.toStdString()), path.toStdString(),
                               [] { return Result<const render::RenderPlugin*>(&linked); });
    return written ? QString() : QString::fromStdString(written.error().message);
}

void addExportMenu(QMainWindow* window, QMenu* fileMenu, const OpenGraphFeed* feed,
                   std::function<QString()> currentFile, const QGraphicsScene* canvas)
{
    QAction* action = fileMenu->addAction(QObject::tr("&Export…"));
    action->setObjectName(QStringLiteral("actionExport"));
    action->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    new ShortcutOverFields(action, window);
    QObject::connect(action, &QAction::triggered, window, [window, feed, canvas, currentFile = std::move(currentFile)] {
        if (!feed->graph())
            return;
        const QString filters = QObject::tr(
            "HTML report (*.html);;PDF report (*.pdf);;CSV per node (*.csv);;JSON report (*.json);;"
            "Model Explorer node data (*.nodedata.json);;Diagram SVG (*.svg);;Diagram PNG (*.png)");
        QString selected;
        QString path = QFileDialog::getSaveFileName(window, QObject::tr("Export"),
                                                    QFileInfo(currentFile()).completeBaseName(), filters, &selected);
        if (path.isEmpty())
            return;
        // The dialog may return a name without the filter's extension.
        const QString ext = selected.section(QLatin1String("(*"), 1).chopped(1);
        if (!path.endsWith(ext, Qt::CaseInsensitive))
            path += ext;
        ReportChoices choices;
        if (costsDevices(path)) {
            ReportDevicesDialog dialog(QString::fromStdString(feed->settings()->value().device), window);
            if (dialog.exec() != QDialog::Accepted)
                return;
            for (const QString& name : dialog.chosen())
                choices.devices.push_back(name.toStdString());
        }
        if (canvas && drawsDiagram(path))
            choices.canvasSvg = canvasSvg(*canvas);
        window->statusBar()->showMessage(QObject::tr("Exporting %1 …").arg(path));
        // Each export is a job of its own: a second one does not make the first one's outcome stale.
        auto* job = new JobTracker(window);
        job->start(exportJob(feed, currentFile(), path, std::move(choices)), [window, job, path](const QString& error) {
            job->deleteLater();
            if (!error.isEmpty())
                QMessageBox::warning(window, QObject::tr("Export failed"), path + QLatin1String(": ") + error);
            else
                window->statusBar()->showMessage(QObject::tr("Exported %1").arg(path), 5000);
        });
    });
}

std::function<QString()> exportJob(const OpenGraphFeed* feed, const QString& source, const QString& path,
                                   ReportChoices choices)
{
    const AnalysisSettings& s = feed->settings()->value();
    return [graph = feed->graph(), source, request = CostRequest{s.model, s.device, s.bindings, s.rlxVersion},
            precision = s.whatIfPrecision(), path, choices = std::move(choices)] {
        if (!graph)
            return QObject::tr("no graph is open");
        if (precision == Precision::Fp32)
            return exportReport(*graph, source, request, path, choices);
        // Priced as the cost views price it: the graph re-typed to the settings' precision.
        auto retyped = edit::withPrecision(*graph, precision);
        return retyped ? exportReport(*retyped, source, request, path, choices)
                       : QString::fromStdString(retyped.error().format(graph->name));
    };
}

} // namespace costscope
