// SPDX-License-Identifier: MIT
// The Vulkan backend on whatever device exists (lavapipe in CI): devices, plans, errors, and the element-wise,
// layout, reduction and normalisation kernels against hand-computed values. Skips cleanly without a device.
// Validation layers are on when installed; any validation error fails the suite.
#include <QTest>

#ifdef COSTSCOPE_HAVE_VULKAN
#include "vulkan_test_util.h"

#include <algorithm>

using namespace costscope;
using namespace costscope::vktest;

class TestVulkanBackend : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { VK_REQUIRE_DEVICE(); }
    void cleanupTestCase()
    {
        QVERIFY2(vulkanValidationErrors() == 0, vulkanLastValidationError().c_str());
    }

    void devices()
    {
        auto devs = vulkan()->devices();
        QVERIFY(!devs.empty());
        QCOMPARE(devs[0].backend, std::string("vulkan"));
        QVERIFY(!devs[0].name.empty());
        QVERIFY(devs[0].memoryBytes > 0);
        auto bad = vulkan()->compile(oneOpGraph(makeOp(OpKind::Identity), {f32({1}, {1})}), {}, 99);
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("no Vulkan device 99") != std::string::npos);
    }

    void binaryBroadcast()
    {
        const auto a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
        const auto b = f32({3}, {10, 20, 30});
        auto add = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("Add")}}), {a, b}));
        QVERIFY(add && sameValues(*add, {2, 3}, {11, 22, 33, 14, 25, 36}));
        auto div = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("Div")}}), {b, a}));
        QVERIFY(div && sameValues(*div, {2, 3}, {10, 10, 10, 2.5, 4, 5}));
        auto pow = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("Pow")}}),
                                {f32({3}, {-2, 2, 9}), f32({3}, {3, 0.5, 0.5})}));
        QVERIFY(pow && sameValues(*pow, {3}, {-8, std::sqrt(2.0), 3}));
        auto mod = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("Mod")}}), {f32({2}, {-7, 7}), f32({1}, {3})}));
        QVERIFY(mod && sameValues(*mod, {2}, {-1, 1}));
        auto prelu = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("PRelu")}}),
                                  {f32({2, 2}, {-1, 2, -3, 4}), f32({2, 1}, {0.5, 0.25})}));
        QVERIFY(prelu && sameValues(*prelu, {2, 2}, {-0.5, 2, -0.75, 4}));
        auto imod = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("Mod")}}), {i64({2}, {-7, 7}), i64({}, {3})}));
        QVERIFY(imod && imod->dtype() == DType::I64 && sameValues(*imod, {2}, {2, 1}));
        const double d[] = {0.1, 1e300}, e[] = {0.2};
        auto f64 = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("Add")}}),
                                {HostTensor::fromBytes({2}, DType::F64, d, 16), HostTensor::fromBytes({1}, DType::F64, e, 8)}));
        QVERIFY(f64 && f64->dtype() == DType::F64);
        QCOMPARE(f64->values<double>()[0], 0.1 + 0.2); // exact in double, not in float
        QCOMPARE(f64->values<double>()[1], 1e300);
    }

    void elementwiseVectorised()
    {
        // F32 element-wise ops go four elements to an invocation where the innermost dim allows: operands walking
        // it contiguously, broadcast along it (stride 0), broadcast over outer dims, and a tail past the last four.
        const auto a = ramp({6, 8}, 11), row = ramp({8}, 12), column = ramp({6, 1}, 13);
        const auto check = [](const HostTensor& got, const HostTensor& x, const HostTensor& y, auto f) {
            const std::int64_t cols = x.dim(1);
            for (std::int64_t i = 0; i < got.dim(0); ++i)
                for (std::int64_t j = 0; j < cols; ++j) {
                    const float xv = x.values<float>()[i * cols + j];
                    const float yv = y.dims().size() == 1 ? y.values<float>()[j]
                                                          : y.values<float>()[y.dim(1) == 1 ? i : i * cols + j];
                    if (std::abs(got.values<float>()[i * cols + j] - f(xv, yv)) > 1e-6f)
                        return false;
                }
            return true;
        };
        for (const HostTensor* y : {&a, &row, &column}) {
            auto sub = VK_RUN(runOp(makeOp(OpKind::Binary, {{"op", std::string("Sub")}}), {a, *y}));
            QVERIFY(sub && check(*sub, a, *y, [](float u, float v) { return u - v; }));
        }
        auto relu = VK_RUN(runOp(makeOp(OpKind::Activation, {{"op", std::string("Relu")}}), {ramp({4 * 5 + 3}, 14)}));
        const auto x = ramp({23}, 14);
        QVERIFY(relu && relu->dims() == x.dims());
        for (std::size_t i = 0; relu && i < 23; ++i)
            QCOMPARE(relu->values<float>()[i], std::max(x.values<float>()[i], 0.0f));
    }

    void compareWhereSum()
    {
        auto lt = VK_RUN(runOp(makeOp(OpKind::Compare, {{"op", std::string("Lt")}}),
                               {f32({4}, {1, 5, 3, 7}), f32({1}, {4})}));
        QVERIFY(lt && lt->dtype() == DType::Bool && sameValues(*lt, {4}, {1, 0, 1, 0}));
        auto eq = VK_RUN(runOp(makeOp(OpKind::Compare, {{"op", std::string("Equal")}}), {i64({3}, {1, 2, 3}), i64({1}, {2})}));
        QVERIFY(eq && sameValues(*eq, {3}, {0, 1, 0}));
        auto where = VK_RUN(runOp(makeOp(OpKind::Where), {boolean({2, 2}, {1, 0, 0, 1}), f32({2, 2}, {1, 2, 3, 4}),
                                                           f32({1}, {-1})}));
        QVERIFY(where && sameValues(*where, {2, 2}, {1, -1, -1, 4}));
        auto where64 = VK_RUN(runOp(makeOp(OpKind::Where), {boolean({2}, {0, 1}), i64({2}, {5, 6}), i64({2}, {7, 8})}));
        QVERIFY(where64 && sameValues(*where64, {2}, {7, 6}));
        auto sum = VK_RUN(runOp(makeOp(OpKind::Sum), {f32({2}, {1, 2}), f32({1}, {10}), f32({2, 1}, {100, 200})}));
        QVERIFY(sum && sameValues(*sum, {2, 2}, {111, 112, 211, 212}));
    }

    void activationsClipCast()
    {
        const auto x = f32({4}, {-2, -0.5, 0.5, 2});
        auto act = [&](const char* name, std::initializer_list<std::pair<std::string, AttrValue>> extra = {}) {
            Op op = makeOp(OpKind::Activation, extra);
            op.attrs.set("op", std::string(name));
            return VK_RUN(runOp(op, {x}));
        };
        auto relu = act("Relu");
        QVERIFY(relu && sameValues(*relu, {4}, {0, 0, 0.5, 2}));
        auto sig = act("Sigmoid");
        QVERIFY(sig && sameValues(*sig, {4}, {1 / (1 + std::exp(2.0)), 1 / (1 + std::exp(0.5)), 1 / (1 + std::exp(-0.5)),
                                              1 / (1 + std::exp(-2.0))}));
        auto gelu = act("Gelu");
        std::vector<double> g;
        for (double v : {-2.0, -0.5, 0.5, 2.0})
            g.push_back(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
        QVERIFY(gelu && sameValues(*gelu, {4}, g, 1e-5));
        auto leaky = act("LeakyRelu", {{"alpha", 0.1}});
        QVERIFY(leaky && sameValues(*leaky, {4}, {-0.2, -0.05, 0.5, 2}));
        auto nan = VK_RUN(runOp(makeOp(OpKind::Activation, {{"op", std::string("IsNaN")}}), {f32({2}, {NAN, 1})}));
        QVERIFY(nan && nan->dtype() == DType::Bool && sameValues(*nan, {2}, {1, 0}));
        auto clip = VK_RUN(runOp(makeOp(OpKind::Clip, {{"min", -1.0}, {"max", 1.0}}), {x}));
        QVERIFY(clip && sameValues(*clip, {4}, {-1, -0.5, 0.5, 1}));
        auto toI = VK_RUN(runOp(makeOp(OpKind::Cast, {{"to", std::string("I64")}}), {f32({3}, {-2.7, 0.2, 3.9})}));
        QVERIFY(toI && toI->dtype() == DType::I64 && sameValues(*toI, {3}, {-2, 0, 3}));
        auto toF = VK_RUN(runOp(makeOp(OpKind::Cast, {{"to", std::string("F32")}}), {i64({2}, {-5, 1 << 20})}));
        QVERIFY(toF && toF->dtype() == DType::F32 && sameValues(*toF, {2}, {-5, 1 << 20}));
        auto toB = VK_RUN(runOp(makeOp(OpKind::Cast, {{"to", std::string("Bool")}}), {f32({3}, {0, 2, -0.1})}));
        QVERIFY(toB && toB->dtype() == DType::Bool && sameValues(*toB, {3}, {0, 1, 1}));
        auto fill = VK_RUN(runOp(makeOp(OpKind::ConstantOfShape, {{"shape", std::vector<std::int64_t>{2, 2}},
                                                                  {"value", 7.0}, {"dtype", std::string("I64")}}), {}));
        QVERIFY(fill && fill->dtype() == DType::I64 && sameValues(*fill, {2, 2}, {7, 7, 7, 7}));
    }

    void layoutCopies()
    {
        const auto x = f32({2, 3}, {0, 1, 2, 3, 4, 5});
        auto tr = VK_RUN(runOp(makeOp(OpKind::Transpose, {{"perm", std::vector<std::int64_t>{1, 0}}}), {x}));
        QVERIFY(tr && sameValues(*tr, {3, 2}, {0, 3, 1, 4, 2, 5}));
        auto sl = VK_RUN(runOp(makeOp(OpKind::Slice, {{"starts", std::vector<std::int64_t>{-1}},
                                                     {"ends", std::vector<std::int64_t>{-100}},
                                                     {"axes", std::vector<std::int64_t>{1}},
                                                     {"steps", std::vector<std::int64_t>{-2}}}), {x}));
        QVERIFY(sl && sameValues(*sl, {2, 2}, {2, 0, 5, 3}));
        auto nw = VK_RUN(runOp(makeOp(OpKind::Narrow, {{"axis", std::int64_t(1)}, {"start", std::int64_t(1)},
                                                      {"len", std::int64_t(2)}}), {x}));
        QVERIFY(nw && sameValues(*nw, {2, 2}, {1, 2, 4, 5}));
        auto cat = VK_RUN(runOp(makeOp(OpKind::Concat, {{"axis", std::int64_t(1)}}), {x, f32({2, 1}, {9, 8})}));
        QVERIFY(cat && sameValues(*cat, {2, 4}, {0, 1, 2, 9, 3, 4, 5, 8}));
        auto ex = VK_RUN(runOp(makeOp(OpKind::Expand, {{"target_shape", std::vector<std::int64_t>{2, 1, 2}}}),
                               {f32({2, 1}, {1, 2})}));
        QVERIFY(ex && sameValues(*ex, {2, 2, 2}, {1, 1, 2, 2, 1, 1, 2, 2}));
        auto tile = VK_RUN(runOp(makeOp(OpKind::Tile, {{"repeats", std::vector<std::int64_t>{2, 1}}}), {f32({1, 2}, {1, 2})}));
        QVERIFY(tile && sameValues(*tile, {2, 2}, {1, 2, 1, 2}));
        const auto row = f32({1, 3}, {1, 2, 3});
        auto pad = [&](const char* mode) {
            return VK_RUN(runOp(makeOp(OpKind::Pad, {{"pads", std::vector<std::int64_t>{0, 2, 0, 1}},
                                                     {"mode", std::string(mode)}, {"value", 9.0}}), {row}));
        };
        auto pc = pad("constant"), pr = pad("reflect"), pe = pad("edge");
        QVERIFY(pc && sameValues(*pc, {1, 6}, {9, 9, 1, 2, 3, 9}));
        QVERIFY(pr && sameValues(*pr, {1, 6}, {3, 2, 1, 2, 3, 2}));
        QVERIFY(pe && sameValues(*pe, {1, 6}, {1, 1, 1, 2, 3, 3}));
        auto ga = VK_RUN(runOp(makeOp(OpKind::Gather, {{"axis", std::int64_t(1)}}), {x, i64({2}, {-1, 0})}));
        QVERIFY(ga && sameValues(*ga, {2, 2}, {2, 0, 5, 3}));
        auto gi = VK_RUN(runOp(makeOp(OpKind::Gather), {i64({3}, {10, 20, 30}), i64({2, 1}, {2, 1})}));
        QVERIFY(gi && gi->dtype() == DType::I64 && sameValues(*gi, {2, 1}, {30, 20}));
        auto ge = VK_RUN(runOp(makeOp(OpKind::GatherElements, {{"axis", std::int64_t(1)}}), {x, i64({2, 2}, {2, 0, 1, 1})}));
        QVERIFY(ge && sameValues(*ge, {2, 2}, {2, 0, 4, 4}));
    }

    void viewsFeedKernels()
    {
        // Input [2,3] -> Reshape [3,2] (view) -> Transpose -> output, and Flatten/Unsqueeze as graph outputs.
        Graph g = oneOpGraph(makeOp(OpKind::Reshape, {{"new_shape", std::vector<std::int64_t>{3, -1}}}),
                             {f32({2, 3}, {})});
        Node tr;
        tr.id = 2;
        tr.op = makeOp(OpKind::Transpose);
        tr.inputs = {1};
        g.add(tr);
        Node un;
        un.id = 3;
        un.op = makeOp(OpKind::Unsqueeze, {{"axes", std::vector<std::int64_t>{0}}});
        un.inputs = {2};
        g.add(un);
        g.outputs = {1, 3};
        auto out = VK_RUN(runGraphAll(g, {f32({2, 3}, {0, 1, 2, 3, 4, 5})}));
        QVERIFY(out);
        QVERIFY(sameValues((*out)[0], {3, 2}, {0, 1, 2, 3, 4, 5}));
        QVERIFY(sameValues((*out)[1], {1, 2, 3}, {0, 2, 4, 1, 3, 5}));
    }

    void reductionsSoftmax()
    {
        const auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
        auto sum = VK_RUN(runOp(makeOp(OpKind::Reduce, {{"op", std::string("Sum")}, {"axes", std::vector<std::int64_t>{1}}}), {x}));
        QVERIFY(sum && sameValues(*sum, {2, 1}, {6, 15}));
        auto mean = VK_RUN(runOp(makeOp(OpKind::Reduce, {{"op", std::string("Mean")}, {"keepdims", std::int64_t(0)}}), {x}));
        QVERIFY(mean && sameValues(*mean, {}, {3.5}));
        auto mx = VK_RUN(runOp(makeOp(OpKind::Reduce, {{"op", std::string("Max")}, {"axes", std::vector<std::int64_t>{0}},
                                                      {"keepdims", std::int64_t(0)}}), {x}));
        QVERIFY(mx && sameValues(*mx, {3}, {4, 5, 6}));
        auto sm = VK_RUN(runOp(makeOp(OpKind::Softmax, {{"axis", std::int64_t(0)}}), {x}));
        const double e = 1 / (1 + std::exp(3.0));
        QVERIFY(sm && sameValues(*sm, {2, 3}, {e, e, e, 1 - e, 1 - e, 1 - e}));
        auto lsm = VK_RUN(runOp(makeOp(OpKind::LogSoftmax), {f32({1, 2}, {0, 0})}));
        QVERIFY(lsm && sameValues(*lsm, {1, 2}, {-std::log(2.0), -std::log(2.0)}));
    }

    void norms()
    {
        const auto x = f32({2, 2}, {1, 3, 2, 6});
        auto ln = VK_RUN(runOp(makeOp(OpKind::LayerNorm, {{"eps", 0.0}}), {x, f32({2}, {1, 2}), f32({2}, {0, 1})}));
        QVERIFY(ln && sameValues(*ln, {2, 2}, {-1, 3, -1, 3}));
        auto rms = VK_RUN(runOp(makeOp(OpKind::RmsNorm, {{"eps", 0.0}}), {f32({1, 2}, {3, 4})}));
        const double r = std::sqrt(12.5);
        QVERIFY(rms && sameValues(*rms, {1, 2}, {3 / r, 4 / r}));
        auto bn = VK_RUN(runOp(makeOp(OpKind::BatchNorm, {{"eps", 0.0}}),
                               {f32({1, 2, 2}, {1, 2, 3, 4}), f32({2}, {2, 1}), f32({2}, {0, 1}), f32({2}, {1, 3}),
                                f32({2}, {4, 1})}));
        QVERIFY(bn && sameValues(*bn, {1, 2, 2}, {0, 1, 1, 2}));
        auto in = VK_RUN(runOp(makeOp(OpKind::InstanceNorm, {{"eps", 0.0}}),
                               {f32({1, 2, 2}, {1, 3, 4, 8}), f32({2}, {1, 1}), f32({2}, {0, 7})}));
        QVERIFY(in && sameValues(*in, {1, 2, 2}, {-1, 1, 6, 8}));
        auto lrn = VK_RUN(runOp(makeOp(OpKind::Lrn, {{"size", std::int64_t(3)}, {"alpha", 3.0}, {"beta", 1.0}, {"bias", 1.0}}),
                                {f32({1, 2, 1}, {1, 2})}));
        QVERIFY(lrn && sameValues(*lrn, {1, 2, 1}, {1.0 / 6.0, 2.0 / 6.0}));
    }

    void errorsAreValues()
    {
        auto unknown = vulkan()->compile(oneOpGraph(Op::unknown("Frobnicate"), {f32({1}, {1})}), {}, 0);
        QVERIFY(!unknown);
        QVERIFY(unknown.error().message.find("no kernel for Frobnicate") != std::string::npos);
        HostTensor half({2}, DType::F16); // F16 is not held on Vulkan
        auto f16 = vulkan()->compile(oneOpGraph(makeOp(OpKind::Identity), {half}), {}, 0);
        QVERIFY(!f16);
        // 2^34 floats: more than any storage buffer may span, an error and no crash.
        Graph huge = oneOpGraph(makeOp(OpKind::Activation, {{"op", std::string("Relu")}}), {f32({1}, {0})});
        huge.nodes[0].shape = Shape::of({std::int64_t(1) << 34});
        auto tooBig = vulkan()->compile(huge, {}, 0);
        QVERIFY(!tooBig);
        auto plan = vulkan()->compile(oneOpGraph(makeOp(OpKind::Identity), {f32({2}, {1, 2})}), {}, 0);
        QVERIFY(plan);
        QVERIFY(!(*plan)->run()); // parameters not uploaded
        QVERIFY((*plan)->uploadParameters());
        auto wrong = (*plan)->setInputs({f32({3}, {1, 2, 3})});
        QVERIFY(!wrong);
        QVERIFY(wrong.error().message.find("must be") != std::string::npos);
        std::atomic<bool> cancel{true};
        QVERIFY((*plan)->setInputs({f32({2}, {1, 2})}));
        auto cancelled = (*plan)->run(&cancel);
        QVERIFY(!cancelled && cancelled.error().message.find("cancelled") != std::string::npos);
    }

    void instrumentedRunAndParameters()
    {
        // Input -> MatMul(Param) -> Relu; the Param gets its synthetic values, repeated runs agree.
        Graph g = oneOpGraph(makeOp(OpKind::MatMul), {f32({2, 3}, {})});
        Node w;
        w.id = 5;
        w.op = makeOp(OpKind::Param);
        w.shape = Shape::of({3, 4});
        const std::vector<float> wv(12, 0.5f);
        w.data = makeTensorData(std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(wv.data()),
                                                          reinterpret_cast<const std::uint8_t*>(wv.data()) + 48));
        g.add(w);
        g.find(1)->inputs.push_back(5);
        Node relu;
        relu.id = 6;
        relu.op = makeOp(OpKind::Activation, {{"op", std::string("Relu")}});
        relu.inputs = {1};
        g.add(relu);
        g.outputs = {6};
        auto plan = vulkan()->compile(g, {}, 0);
        QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
        QVERIFY((*plan)->uploadParameters());
        QVERIFY((*plan)->setInputs({f32({2, 3}, {1, 2, 3, -1, -2, -3})}));
        auto timings = (*plan)->runInstrumented();
        QVERIFY(timings);
        QCOMPARE(timings->size(), std::size_t(2));
        QCOMPARE((*timings)[0].label, std::string("MatMul"));
        QCOMPARE((*timings)[1].label, std::string("Activation.Relu"));
        QVERIFY((*plan)->run());
        auto out = (*plan)->readOutputs();
        QVERIFY(out && sameValues((*out)[0], {2, 4}, {3, 3, 3, 3, 0, 0, 0, 0}));
    }
};

QTEST_GUILESS_MAIN(TestVulkanBackend)
#else
class TestVulkanBackend : public QObject {
    Q_OBJECT
private slots:
    void skipped() { QSKIP("built without Vulkan"); }
};
QTEST_GUILESS_MAIN(TestVulkanBackend)
#endif
#include "test_vulkan_backend.moc"
