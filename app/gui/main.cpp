// SPDX-License-Identifier: MIT
// costscope [FILE] | costscope --screenshot OUT.png [--view canvas|sweep|top|roofline] [--size WxH] FILE |
// costscope --version
#include "app_identity.h"
#include "charts/sweep_screenshot.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "screenshot.h"
#include <QApplication>
#include <QCommandLineParser>
#include <QMap>
#include <cstdio>

int main(int argc, char** argv)
{
    // --version and the screenshot mode must work without a display; decide before QApplication picks a
    // platform (without one, Qt aborts).
    bool headless = false;
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--version") == 0 || qstrcmp(argv[i], "-v") == 0) {
            std::printf("costscope %s\n", COSTSCOPE_VERSION);
            return 0;
        }
        if (qstrcmp(argv[i], "--screenshot") == 0 || qstrcmp(argv[i], "--help") == 0 || qstrcmp(argv[i], "-h") == 0)
            headless = true;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        if (headless)
            qputenv("QT_QPA_PLATFORM", "offscreen");
        else if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
            std::fprintf(stderr, "costscope: no display (DISPLAY/WAYLAND_DISPLAY unset); use costscope-cli, or "
                                 "costscope --screenshot OUT.png FILE\n");
            return 1;
        }
    }

    QApplication app(argc, argv);
    costscope::setApplicationIdentity();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Visual cost analysis of ML computation graphs"));
    parser.addHelpOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window offscreen to OUT.png and exit."),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("What the screenshot shows: canvas, sweep, top or roofline."),
                                  QStringLiteral("canvas|sweep|top|roofline"), QStringLiteral("canvas"));
    const QCommandLineOption windowSize(QStringLiteral("size"),
                                        QStringLiteral("Window size of the screenshot (default 1600x1000, a dock "
                                                       "alone 1100x620)."),
                                        QStringLiteral("WxH"));
    parser.addOption(screenshot);
    parser.addOption(view);
    parser.addOption(windowSize);
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Graph to open (RLX HIR JSON, ONNX, .costscope)."));
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    if (parser.isSet(screenshot)) {
        if (files.size() != 1) {
            std::fprintf(stderr, "costscope: --screenshot needs exactly one FILE\n");
            return 2;
        }
        const QString shown = parser.value(view);
        // The docks a view shows alone (the canvas view shows the whole window).
        const QMap<QString, QString> docks = {{QStringLiteral("canvas"), QString()},
                                              {QStringLiteral("top"), QStringLiteral("topNodesDock")},
                                              {QStringLiteral("roofline"), QStringLiteral("rooflineDock")}};
        if (shown != QLatin1String("sweep") && !docks.contains(shown)) {
            std::fprintf(stderr, "costscope: --view %s: expected canvas, sweep, top or roofline\n", qPrintable(shown));
            return 2;
        }
        QString error;
        // A dock alone is drawn at a size that keeps its text legible on a README page.
        QSize size = docks.value(shown).isEmpty() ? QSize(1600, 1000) : QSize(1100, 620);
        if (parser.isSet(windowSize)) {
            const QStringList wh = parser.value(windowSize).split(QLatin1Char('x'));
            const int w = wh.value(0).toInt();
            const int h = wh.value(1).toInt();
            if (wh.size() != 2 || w < 320 || h < 240 || w > 8192 || h > 8192) {
                std::fprintf(stderr, "costscope: --size %s: expected WxH, from 320x240 to 8192x8192 (e.g. 1280x800)\n",
                             qPrintable(parser.value(windowSize)));
                return 2;
            }
            size = QSize(w, h);
        }
        const int rc = shown == QLatin1String("sweep")
                           ? costscope::renderSweepScreenshot(files.front(), parser.value(screenshot), size, &error)
                           : costscope::renderScreenshot(files.front(), parser.value(screenshot), size, &error,
                                                         docks.value(shown));
        if (rc != 0)
            std::fprintf(stderr, "%s\n", qPrintable(error));
        return rc;
    }

    costscope::MainWindow window;
    window.setCostProvider(costscope::makeCostProvider());
    window.show();
    // A session that crashed left a recovery copy: offer it first; a restored graph is not replaced unasked.
    if (window.offerRecovery() == 0 && !files.isEmpty())
        window.openFile(files.front());
    return QApplication::exec();
}
