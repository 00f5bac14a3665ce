// SPDX-License-Identifier: MIT
#include "export_menu.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;

class TestExportMenu : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
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
};

QTEST_MAIN(TestExportMenu)
#include "test_export_menu.moc"
