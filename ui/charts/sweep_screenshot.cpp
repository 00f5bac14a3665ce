// SPDX-License-Identifier: MIT
#include "charts/sweep_screenshot.h"
#include "charts/sweep_panel.h"
#include "formats/graph_file.h"
#include <QEventLoop>
#include <QTimer>

namespace costscope {

int renderSweepScreenshot(const QString& file, const QString& out, QSize size, QString* error)
{
    auto loaded = loadGraphFile(file.toStdString());
    if (!loaded) {
        *error = QString::fromStdString(loaded.error().format(file.toStdString()));
        return 3;
    }
    SweepPanel panel;
    panel.resize(size);
    panel.setGraph(std::make_shared<const Graph>(std::move(loaded->graph)));
    panel.setFocusDevice(QStringLiteral("Cuda"));
    QEventLoop loop;
    bool timedOut = false;
    QObject::connect(&panel, &SweepPanel::resultsApplied, &loop, &QEventLoop::quit);
    QTimer::singleShot(300000, &loop, [&] {
        timedOut = true;
        loop.quit();
    });
    panel.recompute();
    loop.exec();
    if (timedOut) {
        *error = QStringLiteral("%1: timed out sweeping the graph").arg(file);
        return 3;
    }
    panel.show();
    if (!panel.grab().save(out, "PNG")) {
        *error = QStringLiteral("%1: cannot write the image").arg(out);
        return 1;
    }
    return 0;
}

} // namespace costscope
