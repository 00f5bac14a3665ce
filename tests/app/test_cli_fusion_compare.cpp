// SPDX-License-Identifier: MIT
// costscope-cli run --fusion compare: the CPU, which does not fuse, says so (exit 3); the options it refuses; the
// JSON and text of a scripted verification (two fused kernels with known times), which a GPU run prints the same.
#include "../engine/scripted_fusion_graph.h"
#include "cli/run_fusion_compare.h"
#include "cli/run_output.h"
#include "test_paths.h"

#include <QTest>

#include <iostream>
#include <sstream>

using namespace costscope;
using namespace costscope::test;

namespace {
QString cnn()
{
    return sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
}

FusionVerification scriptedVerification(const Scripted& s)
{
    FusionVerification v;
    v.backend = "cuda";
    v.target = "Cuda";
    v.profile = "rlx-linux/cuda";
    v.plannedGroups = 2;
    v.unfusedWhole = TimingStats::of({700'000});
    v.fusedWhole = TimingStats::of({560'000});
    v.fusedOverheadNs = 1500;
    v.kernels = {
        {"gemm_bias_relu", {s.mm, s.add, s.relu}, 510'000, 420'000, 90'000, 75'000, 500'000, 440'000, 60'000, {}},
        {"elementwise[Mul+Add]", {s.mul, s.out}, 85'000, 35'000, 50'000, 25'000, 60'000, 20'000, 40'000, {}},
        {"elementwise[x]", {s.mul, s.out}, 0, 30'000, -30'000, 1000, 0, 0, 0, "the unfused run did not time"}};
    v.checkedKernels = 2;
    v.rlxShareWithin = 0.5;
    v.costscopeShareWithin = 0.5;
    v.rlxGateGainNs = 100'000;
    v.costscopeGainNs = 100'000;
    return v;
}

std::string captured(const nlohmann::ordered_json& j)
{
    std::ostringstream text;
    auto* old = std::cout.rdbuf(text.rdbuf());
    cli::printRunText(j); // a compare's JSON prints as the compare (what a remote run's JSON goes through)
    std::cout.rdbuf(old);
    return text.str();
}
} // namespace

class TestCliFusionCompare : public QObject {
    Q_OBJECT
private slots:
    void cpuSaysItDoesNotFuse()
    {
        QByteArray out, err;
        const int code = runCli({"run", cnn(), "--backend", "cpu", "--fusion", "compare", "--runs", "2", "--warmup",
                                 "1", "--no-host-probe", "--json"},
                                &out, &err);
        QCOMPARE(code, 3);
        QVERIFY2(err.contains("not fused by this backend: cpu ran every node as a kernel of its own"), err.constData());
        QVERIFY(err.contains("cnn.hir.json"));
        QVERIFY(out.isEmpty());
    }

    void optionsItRefuses()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"run", cnn(), "--fusion", "compare", "--reference", "cpu"}, &out, &err), 2);
        QVERIFY(err.contains("--fusion compare takes no --device all, --reference, --save-output or --trace"));
        QCOMPARE(runCli({"run", cnn(), "--fusion", "sometimes"}, &out, &err), 2);
        QVERIFY(err.contains("--fusion expects on, off or compare, got 'sometimes'"));
    }

    void jsonAndTextOfAVerification()
    {
        const Scripted s = scriptedGraph();
        cli::FusionCompareRequest request;
        request.file = "scripted.hir.json";
        request.device.backend = "cuda";
        request.device.name = "H100";
        const auto j = cli::fusionVerificationJson(s.g, request, scriptedVerification(s));
        QVERIFY(j["fusion"] == "compare");
        QVERIFY(j["target"] == "Cuda");
        QVERIFY(j["unfused"]["median_ns"] == 700'000);
        QVERIFY(j["fused"]["instrumentation_overhead_ns"] == 1500.0);
        QVERIFY(j["measured_gain_ns"] == 140'000.0);
        QVERIFY(j["kernels"].size() == std::size_t(3));
        const auto& gemm = j["kernels"][0];
        QVERIFY(gemm["kernel"] == "gemm_bias_relu");
        QVERIFY(gemm["members"] == nlohmann::ordered_json({s.mm, s.add, s.relu}));
        QVERIFY(gemm["unfused_ns"] == 510'000.0);
        QVERIFY(gemm["fused_ns"] == 420'000.0);
        QVERIFY(gemm["measured_gain_ns"] == 90'000.0);
        QVERIFY(gemm["predicted_gain_ns"]["rlx_gate"] == 75'000.0);
        QVERIFY(gemm["predicted_gain_ns"]["costscope"] == 60'000.0);
        QVERIFY(gemm["predicted_ns"]["costscope_fused"] == 440'000.0);
        QVERIFY(gemm["within_25"]["rlx_gate"] == true);
        QVERIFY(gemm["within_25"]["costscope"] == false);
        QVERIFY(j["kernels"][1]["within_25"]["costscope"] == true);
        QVERIFY(!j["kernels"][2].contains("within_25"));
        QVERIFY(j["kernels"][2]["problem"] == "the unfused run did not time");
        QVERIFY(j["kernels_checked"] == 2);
        QVERIFY(j["within_25_share"]["rlx_gate"] == 0.5);
        QVERIFY(!j.contains("not_verified"));

        const std::string text = captured(j);
        const std::string members = std::to_string(s.mm) + ',' + std::to_string(s.add) + ',' + std::to_string(s.relu);
        QVERIFY2(text.find("  gemm_bias_relu | " + members + " | 510.00 420.00 90.00 | 75.00 60.00")
                     != std::string::npos,
                 text.c_str());
        QVERIFY(text.find("(not checked: the unfused run did not time)") != std::string::npos);
        QVERIFY(text.find("within 25 % of measured: rlx gate 1/2 (50 %), costscope 1/2 (50 %)") != std::string::npos);
        QVERIFY(text.find("device:  cuda:0 (H100)") != std::string::npos);
    }

    void graphWithoutGroupsSaysThereIsNothingToVerify()
    {
        FusionVerification v;
        v.backend = "cuda";
        const auto j = cli::fusionVerificationJson(scriptedGraph().g, {}, v);
        QVERIFY(j["not_verified"] == "the fusion plan finds no nodes to fuse in this graph: nothing to verify");
        QVERIFY(captured(j).find("nothing to verify") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCliFusionCompare)
#include "test_cli_fusion_compare.moc"
