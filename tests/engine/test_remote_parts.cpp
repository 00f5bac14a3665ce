// SPDX-License-Identifier: MIT
// The parts of engine/remote and engine/fleet that need no host: ssh targets and command lines, shell quoting, the
// sweep manifest and entry points, finding the run JSON in a job's logs, and the results' CSV.
#include "fleet/fleet_sweep.h"
#include "fleet/sweep_device_report.h"
#include "fleet/sweep_manifest.h"
#include "fleet/sweep_results.h"
#include "remote/child_process.h"
#include "remote/ssh_target.h"

#include <QTest>

#include <algorithm>

using namespace costscope;

class TestRemoteParts : public QObject {
    Q_OBJECT
private slots:
    void parsesSshTargets();
    void userOptionsComeFirst();
    void quotesForTheRemoteShell();
    void childTimesOut();
    void readsManifests();
    void findsTheRunJsonInLogs();
    void writesCsv();
    void sweepIsADeviceReport();
};

void TestRemoteParts::parsesSshTargets()
{
    auto t = parseSshTarget("me@gpu1:2222");
    QVERIFY(t);
    QCOMPARE(t->user, std::string("me"));
    QCOMPARE(t->host, std::string("gpu1"));
    QCOMPARE(t->port, 2222);
    QCOMPARE(t->destination(), std::string("me@gpu1"));
    auto bare = parseSshTarget("gpu1");
    QVERIFY(bare && bare->user.empty() && bare->port == 0);
    auto v6 = parseSshTarget("me@[::1]:22");
    QVERIFY(v6 && v6->host == "::1" && v6->port == 22);
    QVERIFY(!parseSshTarget("me@gpu1:0"));
    QVERIFY(!parseSshTarget("me@gpu1:x"));
    QVERIFY(!parseSshTarget("@gpu1"));
    QVERIFY(!parseSshTarget(""));
}

void TestRemoteParts::userOptionsComeFirst()
{
    SshTarget t = *parseSshTarget("me@gpu1:2222");
    t.options = {"ConnectTimeout=3"};
    t.controlDir = "/tmp";
    const auto argv = sshCommand(t, "true");
    const auto at = [&](const std::string& s) { return std::find(argv.begin(), argv.end(), s) - argv.begin(); };
    // ssh keeps an option's first value: the user's ConnectTimeout wins over ours.
    QVERIFY(at("ConnectTimeout=3") < at("ConnectTimeout=10"));
    QVERIFY(at("BatchMode=yes") < static_cast<long>(argv.size()));
    QVERIFY(at("ControlMaster=auto") < static_cast<long>(argv.size()));
    QCOMPARE(argv[static_cast<std::size_t>(at("-p")) + 1], std::string("2222"));
    QCOMPARE(argv.back(), std::string("true"));
    const auto scp = scpCommand(t, {"a.json"}, "dir");
    QCOMPARE(scp.back(), std::string("me@gpu1:dir/"));
    QVERIFY(std::find(scp.begin(), scp.end(), "-P") != scp.end());
}

void TestRemoteParts::quotesForTheRemoteShell()
{
    const std::string nasty = "it's a $HOME `x` \"y\" \\ z";
    ChildOptions o;
    o.timeout = std::chrono::seconds(10);
    const ChildResult r = runChild({"sh", "-c", "printf %s " + shellQuote(nasty)}, o);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, nasty);
}

void TestRemoteParts::childTimesOut()
{
    ChildOptions o;
    o.timeout = std::chrono::milliseconds(300);
    std::vector<std::string> lines;
    o.onStderrLine = [&](const std::string& l) { lines.push_back(l); };
    const auto start = std::chrono::steady_clock::now();
    const ChildResult r = runChild({"sh", "-c", "echo one >&2; echo two >&2; exec sleep 30"}, o);
    QVERIFY(r.timedOut);
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    QCOMPARE(lines, (std::vector<std::string>{"one", "two"}));
    QVERIFY(runChild({"/nonexistent/program"}, {}).startFailed);
}

void TestRemoteParts::readsManifests()
{
    auto m = parseSweepManifest(R"({"graphs": ["a.json", "b.json"], "batches": [1, 8], "devices": ["cpu", "cuda:1"],
                                    "run_args": ["--runs", "3"], "retries": 1})",
                                "m.json");
    QVERIFY(m);
    const auto cells = m->cells();
    QCOMPARE(cells.size(), std::size_t(8));
    QCOMPARE(cells[1].backend, std::string("cuda"));
    QCOMPARE(cells[1].deviceIndex, 1);
    QCOMPARE(sweepEntrypoint(*m, cells[1]),
             std::string("'costscope-cli' 'run' 'a.json' '--batch' '1' '--backend' 'cuda' '--device' '1' '--runs' '3' "
                         "'--json'"));
    m->batchSymbol = "n";
    QVERIFY(sweepEntrypoint(*m, cells[0]).find("'--bind' 'n=1'") != std::string::npos);
    QVERIFY(!parseSweepManifest(R"({"graphs": []})", "m.json"));
    QVERIFY(!parseSweepManifest(R"({"graphs": ["a"], "devices": ["cuda:x"]})", "m.json"));
    QVERIFY(!parseSweepManifest(R"({"graphs": ["a"], "retries": -1})", "m.json"));
    QVERIFY(!parseSweepManifest("not json", "m.json"));
    // Device ids as the other commands take them: local/ is this worker; a host's id is refused, Ray picks the host.
    auto local = parseSweepManifest(R"({"graphs": ["a"], "devices": ["local/vulkan:2"]})", "m.json");
    QVERIFY(local);
    QCOMPARE(local->cells()[0].backend, std::string("vulkan"));
    QCOMPARE(local->cells()[0].deviceIndex, 2);
    auto hosted = parseSweepManifest(R"({"graphs": ["a"], "devices": ["gpu7/cuda:0"]})", "m.json");
    QVERIFY(!hosted);
    QVERIFY2(hosted.error().message.find("m.json: device 'gpu7/cuda:0': Ray picks the worker") == 0,
             hosted.error().message.c_str());
    auto unknown = parseSweepManifest(R"({"graphs": ["a"], "devices": ["tpu"]})", "m.json");
    QVERIFY(!unknown
            && unknown.error().message == "m.json: device 'tpu' names no backend Costscope has (cpu, cuda, vulkan)");
}

void TestRemoteParts::findsTheRunJsonInLogs()
{
    auto run = runJsonFromLogs("Ray: starting\n{\n  \"graph\": \"cnn\",\n  \"x\": {\"y\": 1}\n}\nRay: done\n");
    QVERIFY(run);
    QCOMPARE((*run)["graph"].get<std::string>(), std::string("cnn"));
    QVERIFY(runJsonFromLogs("{\n  \"graph\": \"only\"\n}\n"));
    QVERIFY(!runJsonFromLogs("error: no such file\n"));
}

void TestRemoteParts::writesCsv()
{
    SweepCellResult ok, failed;
    ok.cell = {"a,b.json", 8, "cpu", "cpu", 0};
    ok.succeeded = true;
    ok.attempts = 1;
    ok.jobs = {"s-0-1"};
    ok.run = nlohmann::ordered_json::parse(R"({"whole": {"median_ns": 1200}, "predicted": {"rlx": {"total_ns": 1000},
                                                "costscope": {"total_ns": 1100}}})");
    failed.cell = {"c.json", 1, "cpu", "cpu", 0};
    failed.attempts = 3;
    failed.jobs = {"s-1-1", "s-1-2", "s-1-3"};
    failed.error = "said \"no\"";
    const std::string csv = sweepResultsCsv({ok, failed});
    QVERIFY(csv.find("\"a,b.json\",8,cpu,succeeded,1,1200,1000,1100,s-0-1,\n") != std::string::npos);
    QVERIFY(csv.find("c.json,1,cpu,failed,3,,,,s-1-3,\"said \"\"no\"\"\"\n") != std::string::npos);
    const auto j = nlohmann::json::parse(sweepResultsJson({ok, failed}, "http://h:8265"));
    QCOMPARE(j["succeeded"].get<int>(), 1);
    QCOMPARE(j["results"].size(), std::size_t(2));
}

// A sweep's cells as the Run panel's per-device rows: the run's timing and both predictions, a failed cell's error.
void TestRemoteParts::sweepIsADeviceReport()
{
    SweepCellResult ok, failed;
    ok.cell = {"/w/models/cnn.json", 8, "cuda:1", "cuda", 1};
    ok.succeeded = true;
    ok.run = nlohmann::ordered_json::parse(
        R"({"device": {"index": 1, "name": "NVIDIA H100"}, "whole": {"runs": 5, "median_ns": 1200, "min_ns": 1100,
            "max_ns": 1500, "spread": 0.33}, "predicted": {"rlx": {"profile": "rlx-linux/cuda", "total_ns": 1000},
            "costscope": {"profile": "calibrated-cuda", "total_ns": 1500}}})");
    failed.cell = {"c.json", 1, "cpu", "cpu", 0};
    failed.error = "job s-1-3 failed: out of memory";
    const MultiDeviceRunReport r = sweepDeviceReport({ok, failed});
    QCOMPARE(r.devices.size(), std::size_t(2));
    const DeviceRunReport& d = r.devices[0];
    QCOMPARE(d.run.device.name, std::string("cnn b8 on cuda:1 (NVIDIA H100)"));
    QCOMPARE(d.run.device.backend, std::string("cuda"));
    QCOMPARE(d.run.device.index, 1);
    QVERIFY(d.run.isolated && d.run.isolated->medianNs == 1200 && d.run.isolated->runs == 5);
    QVERIFY(!d.run.concurrent && !d.contention());
    QVERIFY(d.predicted);
    QCOMPARE(d.predicted->costscope.profile, std::string("calibrated-cuda"));
    QCOMPARE(d.predicted->rlx.totalNs, 1000.0);
    QCOMPARE(*d.costscopeError(), 0.25);
    QVERIFY(r.devices[1].run.failed());
    QCOMPARE(r.devices[1].run.error, failed.error);
    QVERIFY(r.spreads.empty() && !r.allFailed());
}

QTEST_GUILESS_MAIN(TestRemoteParts)
#include "test_remote_parts.moc"
