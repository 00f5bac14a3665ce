// SPDX-License-Identifier: MIT
// An evaluation report survives its JSON (costscope-cli evaluate --json, read back by the GUI from a remote host),
// and a report with a key missing is refused naming where it came from.
#include "train/eval_report_json.h"

#include <QTest>

using namespace costscope;

class TestEvalReportJson : public QObject {
    Q_OBJECT
private slots:
    void roundTrips()
    {
        EvaluationReport r;
        r.families = {"mlp", "resnet"};
        r.models = {{"rlx parity", {12, 41.5, 0.25, 0.5}, {80, 30.0, 0.3, 0.6}},
                    {"costscope learned", {12, 9.5, 0.7, 0.9}, {80, 12.0, 0.6, 0.85}}};
        r.byFamily = {{"costscope learned", "mlp", {6, 8.0, 0.8, 1.0}, {30, 10.0, 0.7, 0.9}}};
        r.worst = {{"costscope learned", "resnet", "resnet-i32", 1, 1.46e6, 1.0e6}};
        r.predictions = r.worst;
        r.worstNodes = {{"resnet", "resnet-i32", "Conv", 1, 7, 2.0e5, 1.5e5}};
        r.notes = {"no predictor for Softmax: 2 samples"};
        const auto j = evaluationReportJson(r, {"cpu", "AMD EPYC", "127.0.0.1/calibrated-cpu", "leave-one-family-out"});
        EvaluationReportHeader header;
        auto back = parseEvaluationReport(nlohmann::ordered_json::parse(j.dump()), "test", &header);
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(header.device, std::string("AMD EPYC"));
        QCOMPARE(header.profile, std::string("127.0.0.1/calibrated-cpu"));
        QCOMPARE(back->families, r.families);
        QCOMPARE(back->models.size(), std::size_t(2));
        QCOMPARE(back->models[1].model, std::string("costscope learned"));
        QCOMPARE(back->models[1].graphs.mape, 9.5);
        QCOMPARE(back->models[1].graphs.within10, 0.7);
        QCOMPARE(back->models[0].nodes.count, 80);
        QCOMPARE(back->byFamily[0].family, std::string("mlp"));
        QCOMPARE(back->worst[0].batch, std::int64_t(1));
        QCOMPARE(back->worst[0].error(), r.worst[0].error());
        QCOMPARE(back->predictions.size(), std::size_t(1));
        QCOMPARE(back->worstNodes[0].node, NodeId(7));
        QCOMPARE(back->worstNodes[0].op, std::string("Conv"));
        QCOMPARE(back->notes, r.notes);
    }

    void aMissingKeyIsNamed()
    {
        auto j = evaluationReportJson({}, {});
        j.erase("models");
        auto r = parseEvaluationReport(j, "gpu1: evaluate --json");
        QVERIFY(!r);
        QVERIFY2(r.error().message.rfind("gpu1: evaluate --json: not an evaluation report", 0) == 0,
                 r.error().message.c_str());
        QVERIFY2(r.error().message.find("models") != std::string::npos, r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestEvalReportJson)
#include "test_eval_report_json.moc"
