// SPDX-License-Identifier: MIT
// If, Loop and Scan on the CUDA backend against the CPU backend, with and without fusion: each body runs as a CUDA
// plan per iteration, the stretches around the control flow as plans of their own, nested control flow included.
// Without a GPU (CI) it checks that compile() says there is none, and skips those runs. What the CUDA backend needs
// beyond its kernels is checked everywhere: every stretch and body it is given states the shapes its nodes compute
// (it sizes every buffer from them), checked by running them on the CPU.
#include "control_flow_models.h"
#include "control_flow_plan.h"
#include "cpu/cpu_backend.h"
#include "shape_util.h"

#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
// A CPU plan of `graph` that fails a run where a node's value differs from its stated shape: the shapes a CUDA plan
// of the same graph would allocate.
class StatedShapeCheck : public ExecutablePlan {
public:
    static Result<std::unique_ptr<ExecutablePlan>> compile(const Graph& graph, const Bindings& bindings)
    {
        auto check = std::make_unique<StatedShapeCheck>();
        check->m_graph = graph;
        Graph everything = graph;
        for (const Node& n : check->m_graph.nodes)
            if (n.op.kind != OpKind::Input && n.op.kind != OpKind::Param && n.op.kind != OpKind::Constant) {
                everything.outputs.push_back(n.id);
                check->m_checked.push_back(&n);
            }
        auto plan = check->m_cpu.compile(everything, bindings, 0);
        if (!plan)
            return plan.error();
        check->m_plan = std::move(*plan);
        check->m_inputs = check->m_plan->inputs();
        return std::unique_ptr<ExecutablePlan>(std::move(check));
    }
    Result<bool> uploadParameters() override { return m_plan->uploadParameters(); }
    Result<bool> setInputs(const std::vector<HostTensor>& inputs) override { return m_plan->setInputs(inputs); }
    Result<bool> run(const std::atomic<bool>* cancel) override
    {
        if (auto r = m_plan->run(cancel); !r)
            return r;
        auto values = m_plan->readOutputs();
        if (!values)
            return values.error();
        for (std::size_t i = m_graph.outputs.size(); i < values->size(); ++i) {
            const Node& n = *m_checked[i - m_graph.outputs.size()];
            if ((*values)[i].dims() != resolvedDims(n.shape, {}).value_or(std::vector<std::int64_t>{-1}))
                return Diagnostic::error("node '" + n.displayName() + "' (" + n.op.label() + ") states "
                                         + n.shape.toString() + " but computes " + describe((*values)[i]));
        }
        m_outputs.assign(values->begin(), values->begin() + static_cast<std::ptrdiff_t>(m_graph.outputs.size()));
        return true;
    }
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>* cancel) override
    {
        if (auto r = run(cancel); !r)
            return r.error();
        return std::vector<NodeTiming>{};
    }
    Result<std::vector<HostTensor>> readOutputs() const override { return m_outputs; }

private:
    CpuBackend m_cpu{1};
    Graph m_graph;
    std::vector<const Node*> m_checked; // the nodes of m_graph whose values follow its outputs in m_plan's
    std::unique_ptr<ExecutablePlan> m_plan;
    std::vector<HostTensor> m_outputs;
};
} // namespace

class TestCudaControlFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!onnxImportAvailable())
            QSKIP("this build has no ONNX import (libonnx not found)");
    }

    // What the CUDA backend is given: its compile step swapped for the check, the rest of the path as it runs.
    void stretchesAndBodiesStateTheirShapes_data()
    {
        QTest::addColumn<int>("index");
        const auto cases = controlFlowCases();
        for (std::size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].name) << int(i);
    }
    void stretchesAndBodiesStateTheirShapes()
    {
        QFETCH(int, index);
        const ControlFlowCase c = std::move(controlFlowCases()[static_cast<std::size_t>(index)]);
        auto g = import(c.model);
        QVERIFY2(g, g ? "" : g.error().message.c_str());
        auto plan = compileAroundControlFlow(*g, {}, StatedShapeCheck::compile);
        QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
        QVERIFY((*plan)->uploadParameters());
        QVERIFY((*plan)->setInputs(c.inputs));
        auto ran = (*plan)->run();
        QVERIFY2(ran, ran ? "" : ran.error().format("graph").c_str());
        CpuBackend cpu(1);
        auto want = runOn(cpu, *g, c.inputs);
        auto got = (*plan)->readOutputs();
        QVERIFY(want && got);
        for (std::size_t i = 0; i < want->size(); ++i)
            QCOMPARE(floats((*got)[i]), floats((*want)[i]));
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
