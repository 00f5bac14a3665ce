// SPDX-License-Identifier: MIT
// If, Loop and Scan on the CUDA backend against the CPU backend, with and without fusion: each body runs as a CUDA
// plan per iteration, the stretches around the control flow as plans of their own, nested control flow included.
// Without a GPU (CI) it checks that compile() says there is none, and skips the rest.
#include "control_flow_models.h"
#include "cpu/cpu_backend.h"

#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

#include <QTest>

using namespace costscope;
using namespace costscope::test;

class TestCudaControlFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!onnxImportAvailable())
            QSKIP("this build has no ONNX import (libonnx not found)");
    }

    void sameAsCpu_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("fusion");
        const auto cases = controlFlowCases();
        for (bool fusion : {true, false})
            for (std::size_t i = 0; i < cases.size(); ++i)
                QTest::newRow((std::string(cases[i].name) + (fusion ? "_fused" : "_unfused")).c_str())
                    << int(i) << fusion;
    }

    void sameAsCpu()
    {
#ifdef COSTSCOPE_HAVE_CUDA
        QFETCH(int, index);
        QFETCH(bool, fusion);
        const ControlFlowCase c = std::move(controlFlowCases()[static_cast<std::size_t>(index)]);
        auto g = import(c.model);
        QVERIFY2(g, g ? "" : g.error().message.c_str());
        CudaBackend cuda;
        if (cuda.devices().empty()) {
            auto refused = cuda.compile(*g, {}, 0);
            QVERIFY(!refused);
            QVERIFY2(refused.error().message.find("no CUDA device") != std::string::npos,
                     refused.error().message.c_str());
            QSKIP("no CUDA device");
        }
        CompileOptions options;
        options.fusion = fusion;
        cuda.setCompileOptions(options);
        CpuBackend cpu(1);
        auto want = runOn(cpu, *g, c.inputs);
        QVERIFY2(want, want ? "" : want.error().message.c_str());
        for (bool instrumented : {false, true}) {
            auto got = runOn(cuda, *g, c.inputs, instrumented);
            QVERIFY2(got, got ? "" : got.error().format("graph").c_str());
            QCOMPARE(got->size(), want->size());
            for (std::size_t i = 0; i < want->size(); ++i) {
                QCOMPARE((*got)[i].dims(), (*want)[i].dims());
                QCOMPARE(floats((*got)[i]), floats((*want)[i]));
            }
        }
#else
        QSKIP("built without CUDA");
#endif
    }
};

QTEST_GUILESS_MAIN(TestCudaControlFlow)
#include "test_cuda_control_flow.moc"
