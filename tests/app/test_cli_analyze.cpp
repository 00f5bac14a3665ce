// SPDX-License-Identifier: MIT
// costscope-cli analyze / sweep / profiles: output shape, and numbers equal to the library's.
#include "analysis/costscope_cost_model.h"
#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"
#include "edit/precision_transform.h"
#include "formats/graph_file.h"
#include "test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace costscope;
using costscope::test::runCli;

namespace {

Node node(NodeId id, Op op, std::vector<NodeId> inputs, Shape shape, std::string name = {})
{
    Node n;
    n.id = id;
    n.op = std::move(op);
    n.inputs = std::move(inputs);
    n.shape = std::move(shape);
    if (!name.empty())
        n.name = name;
    return n;
}

Shape batchBy(std::int64_t cols)
{
    Shape s = Shape::of({0, cols});
    s.dims[0] = Dim::named("batch");
    return s;
}

Graph mlp()
{
    Graph g;
    g.name = "mlp";
    Attrs x, w;
    x.set("name", std::string("x"));
    w.set("name", std::string("w"));
    g.add(node(0, Op::make(OpKind::Input, x), {}, batchBy(128)));
    g.add(node(1, Op::make(OpKind::Param, w), {}, Shape::of({128, 128})));
    g.add(node(2, Op::make(OpKind::MatMul), {0, 1}, batchBy(128), "fc"));
    Attrs relu;
    relu.set("op", std::string("Relu"));
    g.add(node(3, Op::make(OpKind::Activation, relu), {2}, batchBy(128), "act"));
    g.outputs = {3};
    return g;
}

QStringList keys(const QJsonObject& o)
{
    return o.keys(); // sorted; the CLI's order is checked on the raw text
}

} // namespace

class TestCliAnalyze : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv("COSTSCOPE_PROFILES_DIR", costscope::test::sourcePath("resources/profiles").toUtf8());
        qputenv("XDG_DATA_HOME", m_dir.path().toUtf8()); // no user profiles shadowing the presets
        m_file = m_dir.filePath("mlp.json");
        QVERIFY(saveGraphFile(mlp(), m_file.toStdString()).ok());
        auto loaded = loadGraphFile(m_file.toStdString());
        QVERIFY(loaded.ok());
        m_graph = loaded->graph;
    }

    void costscopeJsonEqualsLibrary()
    {
        QByteArray out, err;
        const int rc = runCli({"analyze", m_file, "--model", "costscope", "--profile", "nvidia-h200", "--profile",
                               "generic-x86-16core", "--bind", "batch=8", "--json"},
                              &out, &err);
        QVERIFY2(rc == 0, err.constData());
        // Key order as documented.
        const QString text = QString::fromUtf8(out);
        QVERIFY(text.indexOf("\"model\"") < text.indexOf("\"bindings\""));
        QVERIFY(text.indexOf("\"bindings\"") < text.indexOf("\"devices\""));
        QVERIFY(text.indexOf("\"devices\"") < text.lastIndexOf("\"pick\""));
        QVERIFY(text.lastIndexOf("\"pick\"") < text.lastIndexOf("\"skipped\""));
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(keys(j), (QStringList{"bindings", "devices", "model", "pick", "rlx_version", "skipped"}));
        QCOMPARE(j["rlx_version"].toString(), QString("0.2.16"));
        QCOMPARE(j["skipped"].toArray().size(), 0);
        QCOMPARE(j["model"].toString(), QString("costscope"));
        QCOMPARE(j["bindings"].toObject()["batch"].toInt(), 8);

        ProfilePaths paths;
        paths.presetDir = costscope::test::sourcePath("resources/profiles").toStdString();
        const ProfileLibrary lib = ProfileLibrary::load(paths);
        const CostscopeCostModel model;
        const QJsonArray devices = j["devices"].toArray();
        QCOMPARE(devices.size(), 2);
        const char* names[] = {"nvidia-h200", "generic-x86-16core"};
        double best = 1e300;
        QString pick;
        for (int i = 0; i < 2; ++i) {
            const QJsonObject d = devices[i].toObject();
            QCOMPARE(keys(d), (QStringList{"calibration", "device", "io", "nodes", "profile", "ranked", "total_ns"}));
            QCOMPARE(d["calibration"].toString(), QString("ArchDefault")); // datasheet presets
            QVERIFY(d["ranked"].toBool());
            const GraphCost c = model.estimate(m_graph, *lib.find(names[i]), {{"batch", 8}});
            QCOMPARE(d["profile"].toString(), QString(names[i]));
            QCOMPARE(d["device"].toString(), QString::fromUtf8(deviceName(c.device).data()));
            QCOMPARE(d["total_ns"].toDouble(), c.totalNs);
            const QJsonObject io = d["io"].toObject();
            QCOMPARE(keys(io), (QStringList{"device_traffic_bytes", "host_output_bytes", "kernel_launches",
                                            "sync_points"}));
            QCOMPARE(io["kernel_launches"].toInteger(), qint64(c.io.kernelLaunches));
            QCOMPARE(io["device_traffic_bytes"].toInteger(), qint64(c.io.deviceTrafficBytes));
            const QJsonArray nodes = d["nodes"].toArray();
            QCOMPARE(nodes.size(), qsizetype(c.nodes.size()));
            for (int n = 0; n < nodes.size(); ++n) {
                const QJsonObject o = nodes[n].toObject();
                QCOMPARE(keys(o), (QStringList{"bytes", "compute_ns", "cost_ns", "dispatch_ns", "flops", "id",
                                               "memory_ns", "name", "op"}));
                QCOMPARE(o["id"].toInteger(), c.nodes[n].id);
                QCOMPARE(o["cost_ns"].toDouble(), c.nodes[n].totalNs);
                QCOMPARE(o["flops"].toDouble(), c.nodes[n].flops);
                QCOMPARE(o["bytes"].toInteger(), qint64(c.nodes[n].bytes));
            }
            QCOMPARE(nodes[2].toObject()["flops"].toDouble(), 2.0 * 8 * 128 * 128);
            QCOMPARE(nodes[2].toObject()["name"].toString(), QString("fc"));
            QCOMPARE(nodes[3].toObject()["op"].toString(), QString("Activation.Relu"));
            if (c.totalNs < best) {
                best = c.totalNs;
                pick = d["device"].toString();
            }
        }
        QCOMPARE(j["pick"].toString(), pick);
    }

    void defaultsAreRlxLinuxCpuCudaGpu()
    {
        QByteArray out, err;
        QVERIFY2(runCli({"analyze", m_file, "--bind", "batch=4", "--json"}, &out, &err) == 0, err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["model"].toString(), QString("rlx"));
        const QJsonArray devices = j["devices"].toArray();
        QCOMPARE(devices.size(), 3);
        const auto rlx = makeCostModel("rlx");
        const auto set = rlxProfileSet("rlx-linux");
        const char* want[] = {"Cpu", "Cuda", "Gpu"};
        for (int i = 0; i < 3; ++i) {
            const QJsonObject d = devices[i].toObject();
            QCOMPARE(d["device"].toString(), QString(want[i]));
            auto p = std::find_if(set.begin(), set.end(), [&](const DeviceProfile& x) {
                return deviceName(x.device) == want[i];
            });
            QVERIFY(p != set.end());
            QCOMPARE(d["profile"].toString(), QString::fromStdString(p->name));
            QCOMPARE(d["total_ns"].toDouble(), rlx->estimate(m_graph, *p, {{"batch", 4}}).totalNs);
        }
    }

    // The default devices (rlx-linux Cpu, Cuda, Gpu): Cuda and Gpu are Uncalibrated, so RLX 0.2.16 picks the Cpu even
    // where Cuda is cheaper, and says why; RLX 0.2.14 picks the cheapest. Totals are the same under both.
    void rlxVersionDecidesThePick()
    {
        QByteArray out, err;
        QVERIFY2(runCli({"analyze", m_file, "--bind", "batch=65536", "--json"}, &out, &err) == 0, err.constData());
        const QJsonObject now = QJsonDocument::fromJson(out).object();
        QVERIFY2(runCli({"analyze", m_file, "--bind", "batch=65536", "--rlx-version", "0.2.14", "--json"}, &out, &err)
                     == 0,
                 err.constData());
        const QJsonObject old = QJsonDocument::fromJson(out).object();
        const auto set = rlxProfileSet("rlx-linux");
        const auto rlx = makeCostModel("rlx");
        const double cpu = rlx->estimate(m_graph, *findProfile(set, Device::Cpu), {{"batch", 65536}}).totalNs;
        const double cuda = rlx->estimate(m_graph, *findProfile(set, Device::Cuda), {{"batch", 65536}}).totalNs;
        const double gpu = rlx->estimate(m_graph, *findProfile(set, Device::Gpu), {{"batch", 65536}}).totalNs;
        QVERIFY2(cuda < cpu && cuda < gpu, "the graph must make the two rules differ");
        QCOMPARE(old["pick"].toString(), QString("Cuda"));
        QCOMPARE(now["pick"].toString(), QString("Cpu"));
        QCOMPARE(old["rlx_version"].toString(), QString("0.2.14"));
        for (qsizetype i = 0; i < 3; ++i) {
            const QJsonObject d = now["devices"].toArray()[i].toObject();
            const bool isCpu = d["device"].toString() == "Cpu";
            QCOMPARE(d["total_ns"].toDouble(), old["devices"].toArray()[i].toObject()["total_ns"].toDouble());
            QCOMPARE(d["calibration"].toString(), QString(isCpu ? "ArchDefault" : "Uncalibrated"));
            QCOMPARE(d["ranked"].toBool(), isCpu);
            QCOMPARE(d.contains("left_out"), !isCpu);
            QVERIFY(old["devices"].toArray()[i].toObject()["ranked"].toBool());
        }
        QCOMPARE(runCli({"analyze", m_file, "--bind", "batch=65536"}, &out, &err), 0);
        QVERIFY2(out.contains("pick (RLX 0.2.16 rule): Cpu (rlx-linux/cpu)"), out.constData());
        QVERIFY2(out.contains("  Cuda (rlx-linux/cuda) left out of the ranking: Uncalibrated model"), out.constData());
        QCOMPARE(runCli({"analyze", m_file, "--rlx-version", "2"}, &out, &err), 2);
        QVERIFY2(err.contains("--rlx-version: unknown RLX version '2'"), err.constData());

        // A sweep draws Cuda's crossover, labelled, and keeps picking the Cpu; 0.2.14 picks Cuda from there on.
        QVERIFY(runCli({"sweep", m_file, "--values", "1:65536:x4", "--json"}, &out, &err) == 0);
        const QJsonObject sweep = QJsonDocument::fromJson(out).object();
        QCOMPARE(sweep["rlx_version"].toString(), QString("0.2.16"));
        for (const QJsonValue& p : sweep["picks"].toArray())
            QCOMPARE(p.toString(), QString("Cpu"));
        const QJsonObject cudaCurve = sweep["devices"].toArray()[1].toObject();
        QCOMPARE(cudaCurve["calibration"].toString(), QString("Uncalibrated"));
        QCOMPARE(cudaCurve["ranked"].toBool(), false);
        const QJsonArray crossings = sweep["crossovers"].toArray();
        QVERIFY(!crossings.isEmpty());
        for (const QJsonValue& c : crossings) {
            QCOMPARE(c.toObject()["picked"].toBool(), false);
            QVERIFY(c.toObject()["text"].toString().contains("not picked"));
        }
        QVERIFY(runCli({"sweep", m_file, "--values", "1:65536:x4", "--rlx-version", "0.2.14", "--json"}, &out, &err)
                == 0);
        const QJsonObject oldSweep = QJsonDocument::fromJson(out).object();
        QCOMPARE(oldSweep["picks"].toArray().last().toString(), QString("Cuda"));
        for (const QJsonValue& c : oldSweep["crossovers"].toArray())
            QVERIFY(c.toObject()["picked"].toBool());
    }

    void csvHasOneRowPerDeviceAndNode()
    {
        QByteArray out;
        QCOMPARE(runCli({"analyze", m_file, "--device", "cpu", "--device", "cuda", "--bind", "batch=2", "--csv"}, &out),
                 0);
        const QStringList lines = QString::fromUtf8(out).trimmed().split('\n');
        QCOMPARE(lines[0], QString("device,profile,node_id,name,op,cost_ns,compute_ns,memory_ns,dispatch_ns,flops,bytes"));
        QCOMPARE(lines.size(), 1 + 2 * 4);
        QVERIFY(lines[3].startsWith("Cpu,"));
        QVERIFY(lines[3].contains(",fc,MatMul,"));
    }

    // --top N: the N costliest nodes of each device, their share of the nodes' sum and the running share.
    void topListsTheCostliestNodes()
    {
        QByteArray out, err;
        QVERIFY2(runCli({"analyze", m_file, "--device", "cpu", "--bind", "batch=2", "--top", "2", "--json"}, &out, &err)
                     == 0,
                 err.constData());
        const QJsonObject cpu = QJsonDocument::fromJson(out).object()["devices"].toArray()[0].toObject();
        double sum = 0, highest = 0;
        for (const QJsonValue& n : cpu["nodes"].toArray()) {
            sum += n.toObject()["cost_ns"].toDouble();
            highest = std::max(highest, n.toObject()["cost_ns"].toDouble());
        }
        const QJsonArray top = cpu["top"].toArray();
        QCOMPARE(top.size(), 2);
        const QJsonObject first = top[0].toObject(), second = top[1].toObject();
        QCOMPARE(first["cost_ns"].toDouble(), highest);
        QVERIFY(second["cost_ns"].toDouble() <= highest);
        QVERIFY(qFuzzyCompare(first["share"].toDouble(), highest / sum));
        QVERIFY(qFuzzyCompare(second["cumulative_share"].toDouble(),
                              first["share"].toDouble() + second["share"].toDouble()));
        QVERIFY(!first["name"].toString().isEmpty() || !first["op"].toString().isEmpty());
        // By op class: every costed node counted once, the shares summing to the whole.
        const QJsonArray classes = cpu["top_op_classes"].toArray();
        QVERIFY(!classes.isEmpty());
        double classSum = 0;
        for (const QJsonValue& c : classes)
            classSum += c.toObject()["cost_ns"].toDouble();
        QVERIFY(qFuzzyCompare(classSum, sum));
        QVERIFY(qFuzzyCompare(classes.last().toObject()["cumulative_share"].toDouble(), 1.0));
        QCOMPARE(classes[0].toObject()["op_class"].toString(), QString("matmul"));
        QCOMPARE(runCli({"analyze", m_file, "--device", "cpu", "--bind", "batch=2", "--top", "1"}, &out, &err), 0);
        QVERIFY(out.contains("top 1 on Cpu"));
        QVERIFY(out.contains("by op class on Cpu"));
        QCOMPARE(runCli({"analyze", m_file, "--top", "0"}, &out, &err), 2);
    }

    void unboundSymbolsAreReported_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("rlx") << "rlx";
        QTest::newRow("costscope") << "costscope";
    }

    void unboundSymbolsAreReported()
    {
        QFETCH(QString, model);
        QByteArray out, err;
        // Metal first: under rlx-linux it is RLX's discrete-GPU fallback, which costs every node without shapes.
        QCOMPARE(runCli({"analyze", m_file, "--model", model, "--device", "metal", "--device", "cuda", "--json"}, &out,
                        &err),
                 0);
        QVERIFY(err.contains("not costed"));
        QVERIFY(err.contains("--bind"));
        // The JSON names each skipped node and why; the library decides which.
        const GraphCost c
            = makeCostModel(model.toStdString())->estimate(m_graph, *findProfile(rlxProfileSet("rlx-linux"), Device::Cuda));
        QVERIFY(!c.skipped.empty());
        const QJsonArray skipped = QJsonDocument::fromJson(out).object()["skipped"].toArray();
        QCOMPARE(skipped.size(), qsizetype(c.skipped.size()));
        for (qsizetype i = 0; i < skipped.size(); ++i) {
            const QJsonObject s = skipped[i].toObject();
            QCOMPARE(keys(s), (QStringList{"id", "name", "op", "reason"}));
            const NodeId id = c.skipped[static_cast<std::size_t>(i)];
            QCOMPARE(s["id"].toInteger(), id);
            QCOMPARE(s["name"].toString(), QString::fromStdString(m_graph.find(id)->displayName()));
            QCOMPARE(s["op"].toString(), QString::fromStdString(m_graph.find(id)->op.label()));
            QCOMPARE(s["reason"].toString(), QString::fromStdString(c.nodes[*m_graph.indexOf(id)].note));
            QVERIFY(s["reason"].toString().contains("batch"));
        }
        // The text lists them too, one line each.
        QCOMPARE(runCli({"analyze", m_file, "--model", model, "--device", "cuda"}, &out, &err), 0);
        const QString text = QString::fromUtf8(out);
        QVERIFY(text.contains(QString("not costed (%1 node(s)").arg(c.skipped.size())));
        for (NodeId id : c.skipped)
            QVERIFY2(text.contains("  %" + QString::number(id) + " "
                                   + QString::fromStdString(m_graph.find(id)->displayName()) + " ("),
                     qPrintable(text));
        // Bound, nothing is skipped.
        QCOMPARE(runCli({"analyze", m_file, "--model", model, "--bind", "batch=2"}, &out, &err), 0);
        QVERIFY(!out.contains("not costed"));
    }

    void textShowsAllFourIoCounters()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"analyze", m_file, "--device", "cpu", "--device", "cuda", "--bind", "batch=16"}, &out, &err),
                 0);
        const QStringList lines = QString::fromUtf8(out).split('\n');
        const auto set = rlxProfileSet("rlx-linux");
        const auto rlx = makeCostModel("rlx");
        int i = 0;
        for (Device d : {Device::Cpu, Device::Cuda}) {
            const IoProfile io = rlx->estimate(m_graph, *findProfile(set, d), {{"batch", 16}}).io;
            QVERIFY(io.hostOutputBytes > 0 && io.deviceTrafficBytes > 0);
            const QString want = QString("launches %1, syncs %2, host output %3 B, device traffic %4 B")
                                     .arg(io.kernelLaunches)
                                     .arg(io.syncPoints)
                                     .arg(io.hostOutputBytes)
                                     .arg(io.deviceTrafficBytes);
            QVERIFY2(lines[i].startsWith(QString::fromUtf8(deviceName(d).data())), qPrintable(lines[i]));
            QVERIFY2(lines[i].endsWith(want), qPrintable(lines[i] + " / " + want));
            ++i;
        }
    }

    void profileFileAndProfileSet()
    {
        const QString file = m_dir.filePath("mine.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"name":"my-box","device":"Vulkan","sgemm_gflops":500,"memory_bw_gbps":50})");
        f.close();
        QByteArray out, err;
        QVERIFY2(runCli({"analyze", m_file, "--model", "costscope", "--profile", file, "--bind", "batch=1", "--json"},
                        &out, &err)
                     == 0,
                 err.constData());
        const QJsonObject d = QJsonDocument::fromJson(out).object()["devices"].toArray()[0].toObject();
        QCOMPARE(d["profile"].toString(), QString("my-box"));
        QCOMPARE(d["device"].toString(), QString("Vulkan"));
        for (const char* option : {"--profiles", "--profile-set"}) {
            QVERIFY(runCli({"analyze", m_file, option, "rlx-apple", "--device", "cpu", "--bind", "batch=1", "--json"},
                           &out, &err)
                    == 0);
            const QJsonObject apple = QJsonDocument::fromJson(out).object()["devices"].toArray()[0].toObject();
            QCOMPARE(apple["profile"].toString(), QString("rlx-apple/cpu"));
        }
        QCOMPARE(runCli({"analyze", m_file, "--profiles", "rlx-windows"}, &out, &err), 2);
        QVERIFY(err.contains("unknown profile set 'rlx-windows'"));
    }

    void badArgumentsFail()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"analyze", m_file, "--profile", "nope"}, &out, &err), 3);
        QVERIFY(err.contains("unknown profile 'nope'"));
        QCOMPARE(runCli({"analyze", m_file, "--bind", "batch"}, &out, &err), 2);
        QVERIFY(err.contains("bad --bind 'batch'"));
        QCOMPARE(runCli({"analyze", m_file, "--model", "magic"}, &out, &err), 2);
        QCOMPARE(runCli({"analyze", m_file, "--device", "toaster"}, &out, &err), 2);
        QVERIFY(err.contains("unknown device 'toaster'"));
        QCOMPARE(runCli({"analyze", m_dir.filePath("missing.json")}, &out, &err), 3);
        QCOMPARE(runCli({"sweep", m_file, "--values", "1:x"}, &out, &err), 2);
        QVERIFY(err.contains("a range is START:END"));
    }

    void precisionWhatIfRepricesTheGraph()
    {
        QByteArray out, err;
        const QStringList common{"analyze",     m_file,   "--model",    "costscope", "--profile",
                                 "nvidia-h100", "--bind", "batch=4096", "--json"};
        QVERIFY2(runCli(common + QStringList{"--precision", "bf16"}, &out, &err) == 0, err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["precision"].toString(), QString("bf16"));
        ProfilePaths paths;
        paths.presetDir = costscope::test::sourcePath("resources/profiles").toStdString();
        const ProfileLibrary lib = ProfileLibrary::load(paths);
        auto bf16 = edit::withPrecision(m_graph, Precision::Bf16);
        QVERIFY(bf16);
        const GraphCost expected = CostscopeCostModel().estimate(*bf16, *lib.find("nvidia-h100"), {{"batch", 4096}});
        const QJsonObject device = j["devices"].toArray()[0].toObject();
        QCOMPARE(device["total_ns"].toDouble(), expected.totalNs);
        QVERIFY2(runCli(common, &out, &err) == 0, err.constData());
        const QJsonObject fp32 = QJsonDocument::fromJson(out).object();
        QVERIFY(!fp32.contains("precision"));
        // bf16 halves the bytes and multiplies on tensor cores: cheaper than fp32.
        QVERIFY(fp32["devices"].toArray()[0].toObject()["total_ns"].toDouble() > expected.totalNs);

        QVERIFY(runCli({"analyze", m_file, "--precision", "tf32", "--profile", "nvidia-h100"}, &out, &err) == 0);
        QVERIFY2(out.contains("precision tf32"), out.constData());
        QCOMPARE(runCli({"analyze", m_file, "--precision", "fp4"}, &out, &err), 2);
        QVERIFY2(err.contains("unknown precision 'fp4'"), err.constData());
        QCOMPARE(runCli({"analyze", m_file, "--precision", "int8"}, &out, &err), 3);
        QVERIFY2(err.contains("quantisation"), err.constData());
    }

    void sweepJsonEqualsEstimates()
    {
        QByteArray out, err;
        QVERIFY2(runCli({"sweep", m_file, "--model", "costscope", "--profile", "nvidia-a100", "--profile",
                         "generic-x86-16core", "--values", "1:4096:x4", "--json"},
                        &out, &err)
                     == 0,
                 err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["symbol"].toString(), QString("batch"));
        QCOMPARE(j["values"].toArray().size(), 7);
        QCOMPARE(j["picks"].toArray().size(), 7);
        ProfilePaths paths;
        paths.presetDir = costscope::test::sourcePath("resources/profiles").toStdString();
        const ProfileLibrary lib = ProfileLibrary::load(paths);
        const QJsonArray totals = j["devices"].toArray()[0].toObject()["total_ns"].toArray();
        QCOMPARE(totals[6].toDouble(),
                 CostscopeCostModel().estimate(m_graph, *lib.find("nvidia-a100"), {{"batch", 4096}}).totalNs);
        QVERIFY(j["crossovers"].isArray());
    }

    void profilesListAndShow()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"profiles"}, &out, &err), 0);
        QVERIFY(out.contains("nvidia-h200"));
        QVERIFY(out.contains("https://www.nvidia.com/en-us/data-center/h200/"));
        QVERIFY(out.contains("rlx-linux/"));
        QVERIFY(out.contains("Uncalibrated") && out.contains("ArchDefault"));
        QCOMPARE(runCli({"profiles", "show", "nvidia-h200"}, &out, &err), 0);
        const QJsonObject p = QJsonDocument::fromJson(out).object();
        QCOMPARE(p["memory_bw_gbps"].toDouble(), 4800.0);
        QCOMPARE(p["device"].toString(), QString("Cuda"));
        QCOMPARE(p["calibration"].toString(), QString("ArchDefault"));
        QCOMPARE(runCli({"profiles", "show", "rlx-linux/cuda"}, &out, &err), 0);
        QCOMPARE(QJsonDocument::fromJson(out).object()["calibration"].toString(), QString("Uncalibrated"));
        QCOMPARE(runCli({"profiles", "show", "nope"}, &out, &err), 3);
    }

    // --device with a local id: this machine's device under its own profile, named by its id beside the kinds, and
    // the pick names the id.
    void localDeviceIdsStandForTheirDevice()
    {
        QByteArray out, err;
        QVERIFY2(
            runCli({"analyze", m_file, "--device", "local/cpu:0", "--device", "cuda", "--bind", "batch=2", "--json"},
                   &out, &err)
                == 0,
            err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        const QJsonArray devices = j["devices"].toArray();
        QCOMPARE(devices.size(), 2);
        QCOMPARE(devices[0].toObject()["device_id"].toString(), QString("cpu:0"));
        QCOMPARE(devices[0].toObject()["profile"].toString(), QString("rlx-linux/cpu"));
        QVERIFY(!devices[1].toObject().contains("device_id"));
        QCOMPARE(j["pick"].toString(), QString("Cpu"));
        QCOMPARE(j["pick_device_id"].toString(), QString("cpu:0"));
        QCOMPARE(runCli({"analyze", m_file, "--device", "cpu:0", "--bind", "batch=2"}, &out, &err), 0);
        QVERIFY2(out.contains("pick (RLX 0.2.16 rule): cpu:0 (rlx-linux/cpu), predicted"), out.constData());

        QCOMPARE(runCli({"analyze", m_file, "--device", "cuda:9"}, &out, &err), 3);
        QVERIFY2(err.contains("--device: no local device 'cuda:9' (devices here: cpu:0"), err.constData());
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
    Graph m_graph;
};

QTEST_GUILESS_MAIN(TestCliAnalyze)
#include "test_cli_analyze.moc"
