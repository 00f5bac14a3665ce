// SPDX-License-Identifier: MIT
// The CUDA and Vulkan backends and the PNG/PDF renderer are plugins: the CLI starts without them, lists what is
// unavailable and why, and refuses to use a missing one with exit 3 naming the reason. ONNX import, XGBoost and
// libcurl/libcrypto are plugins too, so that `--version` and `info` start without loading any of them.
#include "test_paths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using costscope::test::binaryPath;
using costscope::test::cliPath;
using costscope::test::runCli;
using costscope::test::sourcePath;

namespace {

// COSTSCOPE_PLUGIN_PATH replaces the default plugin folders for the CLI runs inside one scope.
class PluginPath {
public:
    explicit PluginPath(const QString& dirs) { qputenv("COSTSCOPE_PLUGIN_PATH", dirs.toUtf8()); }
    ~PluginPath() { qunsetenv("COSTSCOPE_PLUGIN_PATH"); }
};

QJsonObject backendsByName(const QByteArray& devicesJson)
{
    QJsonObject byName;
    for (const auto& b : QJsonDocument::fromJson(devicesJson).object()["backends"].toArray())
        byName[b.toObject()["name"].toString()] = b.toObject();
    return byName;
}

// The shared libraries an ELF file names as NEEDED (readelf, from binutils).
QStringList neededLibraries(const QString& file)
{
    QProcess p;
    p.start("readelf", {"-d", file});
    if (!p.waitForFinished(30000))
        return {};
    QStringList needed;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
        if (line.contains("(NEEDED)"))
            needed << QString::fromUtf8(line.mid(line.indexOf('[') + 1)).section(']', 0, 0);
    return needed;
}

// The shared objects one CLI run loads, linked or opened with dlopen, by file name, as the dynamic loader reports
// them (LD_DEBUG=libs prints "calling init: PATH" for each).
QStringList loadedLibraries(const QStringList& args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LD_DEBUG", "libs");
    p.setProcessEnvironment(env);
    p.start(cliPath(), args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    static const QRegularExpression initLine(R"(calling init: (\S+))");
    QStringList libs;
    for (const QByteArray& line : p.readAllStandardError().split('\n'))
        if (const auto m = initLine.match(QString::fromUtf8(line)); m.hasMatch())
            libs << QFileInfo(m.captured(1)).fileName();
    return libs;
}

} // namespace

class TestCliPlugins : public QObject {
    Q_OBJECT
    QString m_graph = sourcePath("resources/examples/cnn.hir.json");
    QTemporaryDir m_dir;

private slots:
    void devicesListsEveryBackend()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"devices", "--json"}, &out, &err), 0);
        const QJsonObject backends = backendsByName(out);
        QCOMPARE(backends["cpu"].toObject()["available"].toBool(), true);
        for (const char* name : {"cuda", "vulkan"}) {
            QVERIFY2(backends.contains(name), name);
            const QJsonObject b = backends[name].toObject();
            if (b["available"].toBool())
                QCOMPARE(b["detail"].toString(), QStringLiteral("plugin"));
            else
                QVERIFY2(b["detail"].toString().contains("libcostscope_backend_"), qPrintable(b["detail"].toString()));
        }
        // This build has Vulkan (lavapipe in CI): its plugin must load from the build tree.
        if (QFile::exists(binaryPath("plugins/libcostscope_backend_vulkan.so")))
            QVERIFY2(backends["vulkan"].toObject()["available"].toBool(),
                     qPrintable(backends["vulkan"].toObject()["detail"].toString()));
    }

    void withoutPluginsTheCliRunsOnTheCpu()
    {
        const PluginPath none(m_dir.path());
        QByteArray out, err;
        QCOMPARE(runCli({"devices"}, &out, &err), 0);
        QVERIFY2(out.contains("cuda: unavailable: libcostscope_backend_cuda.so is not installed (searched: " +
                              m_dir.path().toUtf8() + ")"),
                 out.constData());
        QVERIFY2(out.contains("vulkan: unavailable: libcostscope_backend_vulkan.so is not installed"), out.constData());
        QVERIFY2(out.contains("cpu:0"), out.constData());

        QVERIFY2(runCli({"run", m_graph, "--backend", "cpu", "--runs", "1"}, &out, &err) == 0, err.constData());
        for (const char* backend : {"cuda", "vulkan"}) {
            QCOMPARE(runCli({"run", m_graph, "--backend", backend, "--runs", "1"}, &out, &err), 3);
            QVERIFY2(err.contains(QByteArray("backend '") + backend + "' is unavailable: libcostscope_backend_"),
                     err.constData());
            QCOMPARE(runCli({"calibrate", "--backend", backend, "--quick"}, &out, &err), 3);
            QVERIFY2(err.contains("is unavailable"), err.constData());
        }
        QCOMPARE(runCli({"run", m_graph, "--backend", "tpu"}, &out, &err), 2);
        QVERIFY2(err.contains("unknown backend 'tpu'"), err.constData());

        const QString png = m_dir.filePath("diagram.png");
        QCOMPARE(runCli({"report", m_graph, "--format", "png", "-o", png}, &out, &err), 3);
        QVERIFY2(err.contains("PNG/PDF rendering is unavailable: libcostscope_renderer.so is not installed"),
                 err.constData());
        QVERIFY(!QFile::exists(png));
        // The text formats need no plugin.
        QCOMPARE(runCli({"report", m_graph, "--format", "svg", "-o", m_dir.filePath("diagram.svg")}, &out, &err), 0);
    }

    void aBrokenPluginIsReportedNotLoaded()
    {
        QTemporaryDir dir;
        QFile fake(dir.filePath("libcostscope_backend_vulkan.so"));
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("not an ELF file");
        fake.close();
        const PluginPath broken(dir.path());
        QByteArray out, err;
        QCOMPARE(runCli({"devices"}, &out, &err), 0);
        QVERIFY2(out.contains("vulkan: unavailable: " + fake.fileName().toUtf8() + " could not be loaded: "),
                 out.constData());
        QCOMPARE(runCli({"run", m_graph, "--backend", "vulkan", "--runs", "1"}, &out, &err), 3);
        QVERIFY2(err.contains(fake.fileName().toUtf8()), err.constData());
    }

    // Issue 18's start-up target (< 30 ms, < 30 MB for both; tests/bench/bench_startup measures): neither command
    // may load a plugin, nor a library that only some commands need.
    void versionAndInfoLoadNoHeavyLibrary()
    {
        for (const QStringList& args : {QStringList{"--version"}, QStringList{"info", m_graph}}) {
            const QStringList libs = loadedLibraries(args);
            const QString command = "costscope-cli " + args.join(' ');
            QVERIFY2(libs.contains("libc.so.6"), qPrintable(command + ": LD_DEBUG=libs reported no libc"));
            for (const QString& lib : libs)
                for (const char* heavy :
                     {"libcostscope_", "libcurl", "libcrypto", "libssl", "libonnx", "libprotobuf", "libxgboost",
                      "libdmlc", "libgomp", "libopenblas", "libQt6", "libvulkan", "libcuda", "libcublas", "libcufft"})
                    QVERIFY2(!lib.startsWith(heavy), qPrintable(command + " loads " + lib));
        }
    }

    void binariesLinkNeitherCudaNorTheVulkanLoader()
    {
        QStringList binaries{cliPath()};
        if (QFile::exists(binaryPath("app/costscope")))
            binaries << binaryPath("app/costscope");
        for (const QString& binary : binaries) {
            const QStringList needed = neededLibraries(binary);
            QVERIFY2(!needed.isEmpty(), qPrintable("readelf found no NEEDED entries in " + binary));
            for (const QString& lib : needed)
                for (const char* forbidden : {"libcudart", "libcublas", "libcufft", "libcuda.", "libvulkan"})
                    QVERIFY2(!lib.startsWith(forbidden), qPrintable(binary + " links " + lib));
        }
        // The CLI loads Qt Gui only through the renderer plugin, when it writes PNG or PDF.
        for (const QString& lib : neededLibraries(cliPath()))
            QVERIFY2(!lib.startsWith("libQt6Gui") && !lib.startsWith("libQt6Svg"), qPrintable("costscope-cli links " + lib));
    }
};

QTEST_GUILESS_MAIN(TestCliPlugins)
#include "test_cli_plugins.moc"
