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

#include <sys/stat.h>

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
};

QTEST_MAIN(TestExportMenu)
#include "test_export_menu.moc"
