// SPDX-License-Identifier: MIT
// If, Loop and Scan on the Vulkan backend (lavapipe in CI) against the CPU backend: each body runs as a Vulkan plan
// per iteration, the stretches around the control flow as plans of their own (compiled once their inputs' dims are
// known), nested control flow included. A body op Vulkan lacks is named with the body it is in.
// Skips cleanly without a device or without ONNX import.
#include <QTest>

#ifdef COSTSCOPE_HAVE_VULKAN
#include "control_flow_models.h"
#include "cpu/cpu_backend.h"
#include "vulkan_test_util.h"

using namespace costscope;
using namespace costscope::test;

class TestVulkanControlFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!onnxImportAvailable())
            QSKIP("this build has no ONNX import (libonnx not found)");
        VK_REQUIRE_DEVICE();
    }
    void cleanupTestCase() { QVERIFY2(vulkanValidationErrors() == 0, vulkanLastValidationError().c_str()); }

    void sameAsCpu_data()
    {
        QTest::addColumn<int>("index");
        const auto cases = controlFlowCases();
        for (std::size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].name) << int(i);
    }

    void sameAsCpu()
    {
        QFETCH(int, index);
        const ControlFlowCase c = std::move(controlFlowCases()[static_cast<std::size_t>(index)]);
        auto g = import(c.model);
        QVERIFY2(g, g ? "" : g.error().message.c_str());
        CpuBackend cpu(1);
        auto want = runOn(cpu, *g, c.inputs);
        QVERIFY2(want, want ? "" : want.error().message.c_str());
        for (bool instrumented : {false, true}) {
            auto got = runOn(*vktest::vulkan(), *g, c.inputs, instrumented);
            QVERIFY2(got, got ? "" : got.error().format("graph").c_str());
            QCOMPARE(got->size(), want->size());
            for (std::size_t i = 0; i < want->size(); ++i)
                QVERIFY2(vktest::sameTensor((*got)[i], (*want)[i], 1e-6), ("output " + std::to_string(i)).c_str());
        }
    }

    void bodyOpVulkanLacksIsNamed()
    {
        // A Loop body with CumSum, which the CPU backend runs and the Vulkan backend has no kernel for.
        OnnxModel m(17);
        Body body = loopBody();
        body.node("CumSum", {"y_in", "axis"}, "y_out");
        body.value(false, "y_out", onnx::TensorProto::FLOAT);
        auto* axis = m.graph().add_initializer();
        axis->set_name("axis");
        axis->set_data_type(onnx::TensorProto::INT64);
        axis->add_int64_data(0);
        auto* trips = m.graph().add_initializer();
        trips->set_name("M");
        trips->set_data_type(onnx::TensorProto::INT64);
        trips->add_int64_data(2);
        m.input("y0", {3});
        auto& loop = m.node("Loop", {"M", "", "y0"}, {"y"});
        graphAttr(loop, "body", body.g);
        m.output("y", {3});
        auto g = import(m);
        QVERIFY2(g, g ? "" : g.error().message.c_str());
        const auto y0 = f32({3}, {1, 2, 3});
        CpuBackend cpu(1);
        auto want = runOn(cpu, *g, {y0});
        QVERIFY2(want, want ? "" : want.error().message.c_str());
        QCOMPARE(floats(want->front()), (std::vector<float>{1, 4, 10}));
        auto got = runOn(*vktest::vulkan(), *g, {y0});
        QVERIFY(!got);
        const std::string message = got.error().format("graph");
        QVERIFY2(message.find("in its body") != std::string::npos && message.find("CumSum") != std::string::npos,
                 message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestVulkanControlFlow)
#else
class TestVulkanControlFlow : public QObject {
    Q_OBJECT
private slots:
    void skipped() { QSKIP("built without Vulkan"); }
};
QTEST_GUILESS_MAIN(TestVulkanControlFlow)
#endif
#include "test_vulkan_control_flow.moc"
