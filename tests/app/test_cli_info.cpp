// SPDX-License-Identifier: MIT
// costscope-cli info --json against the library's summary, and both programs' --version against CMake's
// PROJECT_VERSION.
#include "formats/graph_file.h"
#include "ir/graph_summary.h"
#include "test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace costscope;
using costscope::test::runCli;

namespace {

QJsonArray tensorsJson(const std::vector<GraphSummary::Tensor>& list)
{
    QJsonArray out;
    for (const auto& t : list) {
        QJsonArray dims;
        for (const Dim& d : t.shape.dims)
            dims.append(d.isStatic() ? QJsonValue(qint64(d.value)) : QJsonValue(QString::fromStdString(d.symbol)));
        out.append(QJsonObject{{"id", qint64(t.id)},
                               {"name", QString::fromStdString(t.name)},
                               {"dtype", QString::fromUtf8(dtypeName(t.shape.dtype).data())},
                               {"shape", dims}});
    }
    return out;
}

} // namespace

class TestCliInfo : public QObject {
    Q_OBJECT
private slots:
    void infoJsonEqualsSummary_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("tiny transformer") << costscope::test::sourcePath("resources/examples/tiny_transformer.hir.json");
        QTest::newRow("cnn") << costscope::test::sourcePath("resources/examples/cnn.hir.json");
        const QString mnist = costscope::test::sharedPath("data/rlx/mnist.hir.json");
        if (!mnist.isEmpty())
            QTest::newRow("shared mnist") << mnist;
    }

    void infoJsonEqualsSummary()
    {
        QFETCH(QString, file);
        QByteArray out, err;
        QCOMPARE(runCli({"info", file, "--json"}, &out, &err), 0);
        auto loaded = loadGraphFile(file.toStdString());
        QVERIFY(loaded.ok());
        const GraphSummary s = summarize(loaded->graph);

        // Keys in the documented order.
        const QString text = QString::fromUtf8(out);
        const QStringList order = {"\"name\"", "\"nodes\"", "\"ops\"", "\"inputs\"", "\"outputs\"", "\"params\"",
                                   "\"param_bytes\"", "\"symbols\"", "\"unknown_ops\"", "\"warnings\""};
        for (int i = 1; i < order.size(); ++i)
            QVERIFY2(text.indexOf(order[i - 1]) < text.indexOf(order[i]), qPrintable(order[i]));

        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j.size(), order.size());
        QCOMPARE(j["name"].toString(), QString::fromStdString(s.name));
        QCOMPARE(j["nodes"].toInteger(), qint64(s.nodeCount));
        QCOMPARE(j["nodes"].toInteger(), qint64(loaded->graph.nodes.size()));
        const QJsonObject ops = j["ops"].toObject();
        QCOMPARE(ops.size(), qsizetype(s.opHistogram.size()));
        qint64 counted = 0;
        for (const auto& [op, count] : s.opHistogram) {
            QCOMPARE(ops[QString::fromStdString(op)].toInteger(), qint64(count));
            counted += qint64(count);
        }
        QCOMPARE(counted, qint64(s.nodeCount));
        QCOMPARE(j["inputs"].toArray(), tensorsJson(s.inputs));
        QCOMPARE(j["outputs"].toArray(), tensorsJson(s.outputs));
        QVERIFY(!s.outputs.empty());
        QCOMPARE(j["params"].toInteger(), qint64(s.paramCount));
        QCOMPARE(j["param_bytes"].toInteger(), qint64(s.paramBytes));
        QStringList symbols;
        for (const std::string& sym : s.symbols)
            symbols << QString::fromStdString(sym);
        QCOMPARE(j["symbols"].toVariant().toStringList(), symbols);
        QCOMPARE(j["unknown_ops"].toInteger(), qint64(s.unknownOps));
        QCOMPARE(j["warnings"].toArray().size(), qsizetype(loaded->warnings.size()));
    }

    void infoErrors()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"info"}, &out, &err), 2);
        QVERIFY(err.contains("usage: costscope-cli info FILE [--json]"));
        QCOMPARE(runCli({"info", costscope::test::testDataPath("bad/rlx_truncated.json"), "--json"}, &out, &err), 3);
        QVERIFY(err.contains("rlx_truncated.json"));
    }

    void cliVersionIsTheProjectVersion()
    {
        for (const char* flag : {"--version", "version"}) {
            QByteArray out, err;
            QCOMPARE(runCli({flag}, &out, &err), 0);
            QCOMPARE(out, QByteArray("costscope-cli " COSTSCOPE_PROJECT_VERSION "\n"));
        }
    }

    void commandHelpPrintsItsUsage()
    {
        for (const char* cmd : {"info", "analyze", "run", "calibrate", "fit", "report"})
            for (const char* flag : {"--help", "-h"}) {
                QByteArray out, err;
                QCOMPARE(runCli({cmd, flag}, &out, &err), 0);
                QVERIFY2(out.startsWith(QByteArray("usage: costscope-cli ") + cmd + ' '), out.constData());
                QVERIFY2(err.isEmpty(), err.constData());
            }
        QByteArray out, err;
        QCOMPARE(runCli({"run", "--help"}, &out, &err), 0);
        for (const char* option : {"--device", "--input", "--rtol", "--atol", "--save-output", "--no-host-probe"})
            QVERIFY2(out.contains(option), option);
    }

    void guiVersionIsTheProjectVersion()
    {
        const QString gui = qEnvironmentVariable("COSTSCOPE_GUI");
        if (gui.isEmpty())
            QSKIP("this build has no GUI (COSTSCOPE_GUI unset)");
        for (const char* flag : {"--version", "-v"}) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            // --version must not need a display.
            env.remove("QT_QPA_PLATFORM");
            env.remove("DISPLAY");
            env.remove("WAYLAND_DISPLAY");
            p.setProcessEnvironment(env);
            p.start(gui, {flag});
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 0);
            QCOMPARE(p.readAllStandardOutput(), QByteArray("costscope " COSTSCOPE_PROJECT_VERSION "\n"));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliInfo)
#include "test_cli_info.moc"
