// SPDX-License-Identifier: MIT
#include "screenshot.h"
#include "canvas/canvas_view.h"
#include "canvas/first_view.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include <QCoreApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QPixmap>
#include <QTimer>

namespace costscope {

int renderScreenshot(const QString& file, const QString& out, QSize size, QString* error, const QString& dock)
{
    MainWindow window;
    window.setErrorReporter([](const QString&, const QString&) {});
    window.setCostProvider(makeCostProvider());
    window.resize(size);
    window.show();
    QEventLoop loop;
    QString failure;
    bool timedOut = false;
    // The picture is taken once the diagram is laid out and the costs on every device (overlay and summary bar) arrived.
    bool laidOut = false;
    bool costed = false;
    QObject::connect(&window, &MainWindow::layoutReady, &loop, [&] {
        laidOut = true;
        if (costed)
            loop.quit();
    });
    QObject::connect(&window, &MainWindow::deviceCostsUpdated, &loop, [&] {
        costed = true;
        if (laidOut)
            loop.quit();
    });
    QObject::connect(&window, &MainWindow::loadFailed, &loop, [&](const QString& message) {
        failure = message;
        loop.quit();
    });
    QTimer::singleShot(300000, &loop, [&] {
        timedOut = true;
        loop.quit();
    });
    window.openFile(file);
    loop.exec();
    if (!failure.isEmpty() || timedOut) {
        *error = timedOut ? QStringLiteral("%1: timed out loading and laying out the graph").arg(file) : failure;
        return 3;
    }
    window.resize(size);
    // What a user sees first: fitted, or legible around the costliest node.
    showFirstView(window.canvas(), *window.scene(), window.overlay().cost());
    QWidget* shown = &window;
    if (!dock.isEmpty()) {
        auto* d = window.findChild<QDockWidget*>(dock);
        if (!d) {
            *error = QStringLiteral("no dock %1").arg(dock);
            return 2;
        }
        d->setFloating(true);
        d->resize(size);
        d->show();
        QCoreApplication::processEvents();
        shown = d->widget();
    }
    if (!shown->grab().save(out, "PNG")) {
        *error = QStringLiteral("%1: cannot write the image").arg(out);
        return 1;
    }
    return 0;
}

} // namespace costscope
