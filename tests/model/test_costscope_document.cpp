// SPDX-License-Identifier: MIT
#include "formats/costscope_document.h"
#include "formats/graph_file.h"
#include "test_paths.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace costscope;
using namespace costscope::test;

class TestCostscopeDocument : public QObject {
    Q_OBJECT
private slots:
    void roundTripKeepsAppState()
    {
        COSTSCOPE_REQUIRE_SHARED();
        auto loaded = loadGraphFile(sharedPath("data/rlx/mnist.hir.json").toStdString());
        QVERIFY(loaded.ok());
        CostscopeDocument doc;
        doc.graph = loaded->graph;
        doc.positions[7] = {10.5, -3};
        doc.bindings["batch"] = 8;
        doc.devices = {"Cpu", "Cuda"};
        doc.profiles = {"rlx-linux"};
        doc.costModel = "costscope";
        doc.view = RawJson{R"({"zoom":1.5})"};
        doc.extras.emplace_back("future", RawJson{"[1,2]"});
        const std::string text = writeCostscopeDocument(doc);
        QVERIFY(text.find(R"("format": "costscope")") != std::string::npos);
        QVERIFY(text.find(R"("version": 1)") != std::string::npos);
        auto back = parseCostscopeDocument(text);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QVERIFY(back->graph == doc.graph);
        QCOMPARE(back->positions.at(7).first, 10.5);
        QCOMPARE(back->bindings.at("batch"), std::int64_t(8));
        QCOMPARE(back->devices, doc.devices);
        QCOMPARE(back->costModel, std::string("costscope"));
        QCOMPARE(back->view.text, std::string(R"({"zoom":1.5})"));
        QCOMPARE(back->extras.size(), std::size_t(1));
    }
    void newerVersionIsRefused()
    {
        auto r = parseCostscopeDocument(R"({"format":"costscope","version":99,"graph":{"nodes":[],"outputs":[]}})");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message,
                 std::string("document version 99 is newer than this Costscope reads (1); update Costscope"));
    }
    void saveIsAtomicAndLoadable()
    {
        COSTSCOPE_REQUIRE_SHARED();
        QTemporaryDir dir;
        auto loaded = loadGraphFile(sharedPath("data/rlx/cnn.hir.json").toStdString());
        QVERIFY(loaded.ok());
        const std::string path = dir.filePath("saved.costscope").toStdString();
        QVERIFY(saveGraphFile(loaded->graph, path).ok());
        QVERIFY(saveGraphFile(loaded->graph, path).ok()); // overwrite in place
        std::size_t files = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path().toStdString()))
            ++files;
        QCOMPARE(files, std::size_t(1)); // no temporary file left behind
        auto again = loadGraphFile(path);
        QVERIFY(again.ok());
        QCOMPARE(again->format, GraphFormat::Costscope);
        QVERIFY(again->graph == loaded->graph);
    }
    void saveIntoMissingDirectoryFailsCleanly()
    {
        Graph g;
        auto r = saveGraphFile(g, "/nonexistent-dir/x.json");
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.find("cannot create a temporary file") != std::string::npos);
    }
    void convertCliWritesBothFormats()
    {
        COSTSCOPE_REQUIRE_SHARED();
        QTemporaryDir dir;
        const QString in = sharedPath("data/rlx/mnist.hir.json");
        QCOMPARE(runCli({"convert", in, dir.filePath("a.costscope")}), 0);
        QCOMPARE(runCli({"convert", dir.filePath("a.costscope"), dir.filePath("b.json")}), 0);
        auto a = loadGraphFile(in.toStdString());
        auto b = loadGraphFile(dir.filePath("b.json").toStdString());
        QVERIFY(a.ok() && b.ok());
        QVERIFY(a->graph == b->graph);
        QByteArray err;
        QCOMPARE(runCli({"convert", in, dir.filePath("x.txt")}, nullptr, &err), 2);
        QCOMPARE(runCli({"convert", dir.filePath("missing.json"), dir.filePath("y.json")}, nullptr, &err), 3);
        QVERIFY(err.contains("missing.json: cannot open file"));
    }
};

QTEST_GUILESS_MAIN(TestCostscopeDocument)
#include "test_costscope_document.moc"
