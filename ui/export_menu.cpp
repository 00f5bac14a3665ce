// SPDX-License-Identifier: MIT
#include "export_menu.h"

#include "formats/graph_file.h"
#include "main_window.h"
#include "render/render.h"
#include "report/report_svg.h"
#include "report/report_writers.h"

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>

#include <algorithm>

namespace costscope {

namespace {

QString formatOf(const QString& path)
{
    if (path.endsWith(QLatin1String(".nodedata.json"), Qt::CaseInsensitive))
        return QStringLiteral("node-data");
    return QFileInfo(path).suffix().toLower();
}

// The toolbar's device first (its costs colour the diagram when it is the pick), then RLX's other devices.
std::vector<DeviceProfile> profilesFor(const std::string& current)
{
    std::vector<DeviceProfile> out;
    for (const std::string& name : {current, std::string("Cpu"), std::string("Cuda"), std::string("Gpu")}) {
        auto p = profileForDeviceName(name);
        if (p && std::none_of(out.begin(), out.end(), [&](const DeviceProfile& q) { return q.name == p->name; }))
            out.push_back(std::move(*p));
    }
    return out;
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

QString exportReport(const Graph& g, const QString& source, const CostRequest& request, const QString& path)
{
    const QString format = formatOf(path);
    const auto model = makeCostModel(request.model);
    const auto profiles = profilesFor(request.device);
    if (!model || profiles.empty())
        return QObject::tr("no cost model '%1' or device '%2'")
            .arg(QString::fromStdString(request.model), QString::fromStdString(request.device));
    std::vector<GraphCost> costs;
    for (const DeviceProfile& p : profiles)
        costs.push_back(model->estimate(g, p, request.bindings));
    Report r = buildReport(g, costs, {g.name.empty() ? source.toStdString() : g.name, source.toStdString(),
                                      model->name(), request.bindings, 10, request.rlxVersion});
    const auto syms = g.symbols();
    if (std::find(syms.begin(), syms.end(), "batch") != syms.end()) {
        SweepRequest sweep;
        sweep.values = *parseSweepValues("1:256:x2");
        sweep.base = request.bindings;
        sweep.base.erase("batch");
        sweep.profiles = profiles;
        sweep.rlxVersion = request.rlxVersion;
        attachSweep(r, runSweep(g, *model, sweep), "batch");
    }
    std::string err;
    const std::string out = path.toStdString();
    if (format == QLatin1String("png"))
        return render::svgToPng(diagramSvg(r, r.pick), out, &err) ? QString() : QString::fromStdString(err);
    if (format == QLatin1String("pdf"))
        return render::htmlToPdf(reportHtml(r), out, &err) ? QString() : QString::fromStdString(err);
    std::string bytes;
    if (format == QLatin1String("html"))
        bytes = reportHtml(r);
    else if (format == QLatin1String("csv"))
        bytes = reportCsv(r);
    else if (format == QLatin1String("json"))
        bytes = reportJson(r);
    else if (format == QLatin1String("node-data"))
        bytes = reportNodeData(r, r.pick);
    else if (format == QLatin1String("svg"))
        bytes = diagramSvg(r, r.pick);
    else
        return QObject::tr("unknown export format '%1' (html, pdf, csv, json, nodedata.json, svg or png)").arg(format);
    auto written = writeFileAtomic(out, bytes);
    return written ? QString() : QString::fromStdString(written.error().message);
}

void addExportMenu(MainWindow* window, QMenu* fileMenu)
{
    QAction* action = fileMenu->addAction(QObject::tr("&Export…"));
    action->setObjectName(QStringLiteral("actionExport"));
    action->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    new ShortcutOverFields(action, window);
    QObject::connect(action, &QAction::triggered, window, [window] {
        const auto graph = window->graph();
        if (!graph)
            return;
        const QString filters = QObject::tr(
            "HTML report (*.html);;PDF report (*.pdf);;CSV per node (*.csv);;JSON report (*.json);;"
            "Model Explorer node data (*.nodedata.json);;Diagram SVG (*.svg);;Diagram PNG (*.png)");
        QString selected;
        QString path = QFileDialog::getSaveFileName(window, QObject::tr("Export"),
                                                    QFileInfo(window->currentFile()).completeBaseName(), filters,
                                                    &selected);
        if (path.isEmpty())
            return;
        // The dialog may return a name without the filter's extension.
        const QString ext = selected.section(QLatin1String("(*"), 1).chopped(1);
        if (!path.endsWith(ext, Qt::CaseInsensitive))
            path += ext;
        CostRequest request;
        request.model = window->modelSelector()->currentText().toStdString();
        request.device = window->deviceSelector()->currentText().toStdString();
        request.bindings["batch"] = window->batchSpin()->value();
        request.rlxVersion = window->rlxVersion();
        QGuiApplication::setOverrideCursor(Qt::WaitCursor);
        const QString error = exportReport(*graph, window->currentFile(), request, path);
        QGuiApplication::restoreOverrideCursor();
        if (!error.isEmpty())
            QMessageBox::warning(window, QObject::tr("Export failed"), path + QLatin1String(": ") + error);
    });
}

} // namespace costscope
