// SPDX-License-Identifier: MIT
// The kernel sampler's plan (evaluation/zoo_runs.h) takes the classes in rotation, so that a calibration whose
// predictor budget runs out after a few graphs (a quick one on a busy machine) has sampled every class.
#include "evaluation/zoo_runs.h"
#include "zoo/kernel_sampler.h"

#include <QTest>

#include <map>
#include <set>
#include <string>

using namespace costscope;

class TestSamplerPlan : public QObject {
    Q_OBJECT
private slots:
    void classesComeInRotation()
    {
        for (const double maxGflop : {0.05, 50.0}) {
            std::map<std::string, std::string> classOf; // graph name -> kernel class
            std::set<std::string> classes;
            std::size_t graphs = 0;
            for (const SamplerGraph& s : kernelSamplerGraphs(maxGflop)) {
                classOf[s.graph.name] = s.kernelClass;
                classes.insert(s.kernelClass);
                ++graphs;
            }
            QVERIFY(classes.size() >= 6);
            const std::vector<PlannedGraph> plan = samplerPlan(maxGflop);
            QCOMPARE(plan.size(), graphs); // every graph, once
            std::set<std::string> first, names;
            for (std::size_t i = 0; i < classes.size(); ++i)
                first.insert(classOf.at(plan[i].name));
            QCOMPARE(first, classes); // the first graphs are one of each class
            for (const PlannedGraph& p : plan) {
                QCOMPARE(p.family, std::string(kSamplerFamily));
                QVERIFY(names.insert(p.name).second);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSamplerPlan)
#include "test_sampler_plan.moc"
