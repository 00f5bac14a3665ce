// SPDX-License-Identifier: MIT
#include "canvas/graph_scene.h"
#include "export_menu.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include "report_devices_dialog.h"
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace costscope;

class TestExportMenu : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void menuOffersExport()
    {
        MainWindow w;
        bool found = false;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    found = found || a->text().contains(QStringLiteral("Export"));
        QVERIFY(found);
    }

    void everyFormatFromTheToolbarRequest()
    {
        const QString source = test::sourcePath("resources/examples/tiny_transformer.hir.json");
        auto loaded = loadGraphFile(source.toStdString());
        QVERIFY(loaded);
        CostRequest request;
        request.device = "Cuda";
        request.bindings["batch"] = 8;
        for (const char* name : {"r.html", "r.pdf", "r.csv", "r.json", "r.nodedata.json", "r.svg", "r.png"}) {
            const QString path = m_dir.filePath(QString::fromLatin1(name));
            const QString error = exportReport(loaded->graph, source, request, path);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY2(QFileInfo(path).size() > 100, name);
        }
        QFile f(m_dir.filePath("r.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(j["devices"].toArray().first()["device"].toString(), QString("Cuda")); // the toolbar's device first
        const auto cost = makeCostProvider()(loaded->graph, request);
        QVERIFY(cost);
        QCOMPARE(j["devices"].toArray().first()["total_ns"].toDouble(), cost->totalNs);
        QCOMPARE(j["bindings"]["batch"].toInt(), 8);
        QVERIFY(!exportReport(loaded->graph, source, request, m_dir.filePath("r.docx")).isEmpty());
    }

    // Exports and saved graphs are ordinary files: readable by others under the usual umask (not mkstemp's 0600),
    // and a replaced file keeps its mode.
    void exportsGetTheUsualFileMode()
    {
        const mode_t previous = ::umask(022);
        const QString source = test::sourcePath("resources/examples/tiny_transformer.hir.json");
        auto loaded = loadGraphFile(source.toStdString());
        QVERIFY(loaded);
        CostRequest request;
        request.bindings["batch"] = 8;
        const QFileDevice::Permissions shared = QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                              | QFileDevice::ReadGroup | QFileDevice::ReadOther;
        for (const char* name : {"m.csv", "m.html", "m.json", "m.svg"}) {
            const QString path = m_dir.filePath(QString::fromLatin1(name));
            QVERIFY(exportReport(loaded->graph, source, request, path).isEmpty());
            QVERIFY2((QFile::permissions(path) & shared) == shared, name);
            QVERIFY2(!(QFile::permissions(path) & (QFileDevice::WriteGroup | QFileDevice::WriteOther)), name);
        }
        const std::string saved = m_dir.filePath("g.costscope").toStdString();
        QVERIFY(saveGraphFile(loaded->graph, saved));
        QVERIFY((QFile::permissions(QString::fromStdString(saved)) & shared) == shared);
        QVERIFY(QFile::setPermissions(QString::fromStdString(saved), QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(saveGraphFile(loaded->graph, saved)); // replacing a private file keeps it private
        QCOMPARE(QFile::permissions(QString::fromStdString(saved)) & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
        ::umask(previous);
    }

    // The report covers the devices chosen (not a fixed three), its tables keep words whole and numbers rounded,
    // and its diagram is the canvas as drawn. Read back from the HTML and from the PDF's text.
    void reportCoversTheChosenDevicesAndTheCanvas()
    {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        const QString source = test::sourcePath("resources/examples/tiny_transformer.hir.json");
        w.openFile(source);
        QVERIFY(ready.wait(60000));
        auto loaded = loadGraphFile(source.toStdString());
        QVERIFY(loaded);
        CostRequest request;
        request.device = "Cpu";
        request.bindings["batch"] = 8;
        ReportChoices choices;
        choices.devices = {"Cuda", "Gpu", "Rocm", "Metal", "nvidia-h100", "nvidia-h200"};
        choices.canvasSvg = canvasSvg(*w.scene());
        QVERIFY(choices.canvasSvg.find("<svg") != std::string::npos);
        const QString html = m_dir.filePath("c.html");
        QString error = exportReport(loaded->graph, source, request, html, choices);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        const QString devices =
            text.section(QLatin1String("<h2>Devices</h2>"), 1).section(QLatin1String("</table>"), 0, 0);
        QCOMPARE(devices.count(QLatin1String("<tr")), 1 + 7); // header, the toolbar's Cpu and the six chosen
        for (const char* name : {"nvidia-h100", "nvidia-h200", "Rocm"})
            QVERIFY2(devices.contains(QLatin1String(name)), name);
        QVERIFY(text.contains(QLatin1String("white-space:nowrap")));
        QString tables = text; // the printed numbers: the diagrams' coordinates aside
        tables.remove(
            QRegularExpression(QStringLiteral("<svg.*?</svg>"), QRegularExpression::DotMatchesEverythingOption));
        const auto unrounded = QRegularExpression(QStringLiteral("\\d\\.\\d{4,}|\\d{7,}")).match(tables);
        QVERIFY2(!unrounded.hasMatch(), qPrintable(unrounded.captured()));
        QVERIFY(text.contains(QLatin1String("Costscope canvas"))); // the canvas's SVG is the diagram
        QVERIFY(text.contains(QLatin1String("<h2>Diagram (Cpu)</h2>")));
        // Two devices of one kind (Cuda: RLX's and the H100's and H200's datasheets) are told apart by profile.
        QVERIFY(text.contains(QLatin1String("<th>nvidia-h100</th>")));

        const QString pdf = m_dir.filePath("c.pdf");
        error = exportReport(loaded->graph, source, request, pdf, choices);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QProcess toText;
        toText.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
        if (!toText.waitForFinished(60000) || toText.exitCode() != 0)
            QSKIP("pdftotext (poppler-utils) is not installed: the PDF's text cannot be read back");
        const QString printed = QString::fromUtf8(toText.readAllStandardOutput());
        // Whole words and headers on one line: nothing wrapped inside them (words without "fi" or "ff", which the
        // PDF's text gives as ligatures).
        for (const char* word : {"Launches", "Host out", "nvidia-h200", "LayerNorm", "3.5 MiB"})
            QVERIFY2(printed.contains(QLatin1String(word)), word);

        choices.devices = {"no-such-device"};
        error = exportReport(loaded->graph, source, request, html, choices);
        QVERIFY(error.contains(QLatin1String("no-such-device")));
    }

    void deviceDialogRemembersTheChoice()
    {
        QSettings().remove(QStringLiteral("export/reportDevices"));
        QCOMPARE(ReportDevicesDialog::remembered(QStringLiteral("Rocm")),
                 (QStringList{QStringLiteral("Rocm"), QStringLiteral("Cpu"), QStringLiteral("Cuda"),
                              QStringLiteral("Gpu")}));
        ReportDevicesDialog dialog(QStringLiteral("Rocm"));
        QListWidgetItem* h200 = nullptr;
        for (int i = 0; i < dialog.list()->count(); ++i)
            if (dialog.list()->item(i)->text() == QLatin1String("nvidia-h200"))
                h200 = dialog.list()->item(i);
        QVERIFY(h200);
        QCOMPARE(h200->checkState(), Qt::Unchecked);
        h200->setCheckState(Qt::Checked);
        QVERIFY(dialog.chosen().contains(QLatin1String("nvidia-h200")));
        QCOMPARE(dialog.chosen().front(), QStringLiteral("Rocm"));
        dialog.accept();
        QVERIFY(ReportDevicesDialog::remembered(QStringLiteral("Cpu")).contains(QLatin1String("nvidia-h200")));
        QSettings().remove(QStringLiteral("export/reportDevices"));
    }
};

QTEST_MAIN(TestExportMenu)
#include "test_export_menu.moc"
