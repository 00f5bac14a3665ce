// SPDX-License-Identifier: MIT
// Element-wise and layout kernels of the CPU backend on hand-built graphs with hand-computed expectations.
#include "op_runner.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace costscope;
using namespace costscope::test;

class TestCpuKernelsBasic : public QObject {
    Q_OBJECT
private slots:
    void binaryBroadcasts();
    void binaryIntegerOps();
    void compareAndWhere();
    void activations();
    void castAndClip();
    void sumOfThree();
    void reshapeFamily();
    void transposeAndSlice();
    void concatExpandTile();
    void padModes();
    void gatherFamily();
    void constantOfShape();
};

void TestCpuKernelsBasic::binaryBroadcasts()
{
    auto add = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Add")}}),
                            {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {10, 20, 30})}));
    QVERIFY(add);
    QVERIFY(sameFloats(*add, {2, 3}, {11, 22, 33, 14, 25, 36}));
    auto sub = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Sub")}}),
                            {f32({2, 1}, {1, 2}), f32({1, 3}, {1, 2, 3})}));
    QVERIFY(sub);
    QVERIFY(sameFloats(*sub, {2, 3}, {0, -1, -2, 1, 0, -1}));
    auto pow = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Pow")}}), {f32({3}, {2, 3, 4}), f32({}, {2})}));
    QVERIFY(pow);
    QVERIFY(sameFloats(*pow, {3}, {4, 9, 16}));
    auto prelu = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("PRelu")}}),
                              {f32({2, 2}, {-1, 2, -3, 4}), f32({2, 1}, {0.5f, 0.25f})}));
    QVERIFY(prelu);
    QVERIFY(sameFloats(*prelu, {2, 2}, {-0.5f, 2, -0.75f, 4}));
    auto perChannel = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("PRelu")}}),
                                   {f32({1, 2, 3}, {-1, -1, 1, -1, -1, 1}), f32({2}, {0.5f, 2})}));
    QVERIFY(perChannel);
    QVERIFY(sameFloats(*perChannel, {1, 2, 3}, {-0.5f, -0.5f, 1, -2, -2, 1}));
    // Broadcasts whose iteration merges dims (per-channel bias, a middle run, size-1 dims, a scalar row) against
    // direct index arithmetic.
    const std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> shapes = {
        {{2, 3, 4, 5}, {1, 3, 1, 1}}, {{2, 3, 4, 5}, {2, 1, 4, 1}}, {{2, 1, 4, 5}, {1, 3, 1, 5}},
        {{2, 3, 1, 5}, {2, 3, 4, 1}}, {{1, 3, 4, 1}, {2, 1, 1, 5}}, {{6, 1, 1, 1}, {1, 1, 1, 7}}};
    for (const auto& [da, db] : shapes) {
        HostTensor a(da, DType::F32), b(db, DType::F32);
        for (std::size_t i = 0; i < a.elements(); ++i)
            a.values<float>()[i] = float(i) * 0.5f;
        for (std::size_t i = 0; i < b.elements(); ++i)
            b.values<float>()[i] = float(i) * 100.0f;
        auto sum = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Add")}}), {a, b}));
        QVERIFY(sum);
        std::vector<std::int64_t> out(4);
        for (std::size_t d = 0; d < 4; ++d)
            out[d] = std::max(da[d], db[d]);
        std::vector<float> want;
        for (std::int64_t i0 = 0; i0 < out[0]; ++i0)
            for (std::int64_t i1 = 0; i1 < out[1]; ++i1)
                for (std::int64_t i2 = 0; i2 < out[2]; ++i2)
                    for (std::int64_t i3 = 0; i3 < out[3]; ++i3) {
                        auto at = [&](const std::vector<std::int64_t>& d) {
                            const std::int64_t idx[4] = {i0, i1, i2, i3};
                            std::int64_t off = 0;
                            for (std::size_t k = 0; k < 4; ++k)
                                off = off * d[k] + (d[k] == 1 ? 0 : idx[k]);
                            return std::size_t(off);
                        };
                        want.push_back(a.values<float>()[at(da)] + b.values<float>()[at(db)]);
                    }
        QVERIFY2(sameFloats(*sum, out, want), Shape::of(da).toString().c_str());
    }
    auto bad = runOp(makeOp(OpKind::Binary, {{"op", std::string("Add")}}), {f32({2}, {1, 2}), f32({3}, {1, 2, 3})});
    QVERIFY(!bad);
    QVERIFY(bad.error().node.has_value());
    QVERIFY(bad.error().message.find("broadcast") != std::string::npos);
}

void TestCpuKernelsBasic::binaryIntegerOps()
{
    auto mod = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Mod")}}),
                            {i64({4}, {7, -7, 7, -7}), i64({4}, {3, 3, -3, -3})}));
    QVERIFY(mod);
    QCOMPARE(std::vector<std::int64_t>(mod->values<std::int64_t>().begin(), mod->values<std::int64_t>().end()),
             (std::vector<std::int64_t>{1, 2, -2, -1}));
    auto div = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Div")}}), {i64({2}, {7, 5}), i64({2}, {2, 0})}));
    QVERIFY(div);
    QCOMPARE(div->values<std::int64_t>()[0], std::int64_t(3));
    QCOMPARE(div->values<std::int64_t>()[1], std::int64_t(0)); // no trap on division by zero
}

void TestCpuKernelsBasic::compareAndWhere()
{
    auto le = RUN_OK(runOp(makeOp(OpKind::Compare, {{"op", std::string("Le")}}), {f32({3}, {1, 2, 3}), f32({}, {2})}));
    QVERIFY(le);
    QCOMPARE(le->dtype(), DType::Bool);
    QVERIFY(sameFloats(*le, {3}, {1, 1, 0}));
    auto eq = RUN_OK(runOp(makeOp(OpKind::Compare, {{"op", std::string("Equal")}}), {i64({2}, {4, 5}), i64({2}, {4, 6})}));
    QVERIFY(eq);
    QVERIFY(sameFloats(*eq, {2}, {1, 0}));
    HostTensor cond({2, 2}, DType::Bool);
    cond.values<std::uint8_t>()[0] = 1;
    cond.values<std::uint8_t>()[3] = 1;
    auto w = RUN_OK(runOp(makeOp(OpKind::Where), {cond, f32({2, 2}, {1, 2, 3, 4}), f32({}, {-1})}));
    QVERIFY(w);
    QVERIFY(sameFloats(*w, {2, 2}, {1, -1, -1, 4}));
}

void TestCpuKernelsBasic::activations()
{
    const HostTensor x = f32({4}, {-2, -0.5f, 0, 1});
    auto act = [&](const char* name, std::initializer_list<std::pair<std::string, AttrValue>> extra = {}) {
        Op op = makeOp(OpKind::Activation, extra);
        op.attrs.set("op", std::string(name));
        return runOp(op, {x});
    };
    QVERIFY(sameFloats(*RUN_OK(act("Relu")), {4}, {0, 0, 0, 1}));
    QVERIFY(sameFloats(*RUN_OK(act("Sigmoid")), {4}, {0.11920292f, 0.37754067f, 0.5f, 0.7310586f}));
    QVERIFY(sameFloats(*RUN_OK(act("Gelu")), {4}, {-0.04550026f, -0.15426877f, 0, 0.8413447f}));
    QVERIFY(sameFloats(*RUN_OK(act("GeluApprox")), {4}, {-0.04540231f, -0.15428599f, 0, 0.8411920f}));
    QVERIFY(sameFloats(*RUN_OK(act("Silu")), {4}, {-0.23840584f, -0.18877034f, 0, 0.7310586f}));
    QVERIFY(sameFloats(*RUN_OK(act("LeakyRelu", {{"alpha", 0.1}})), {4}, {-0.2f, -0.05f, 0, 1}));
    QVERIFY(sameFloats(*RUN_OK(act("Elu", {{"alpha", 2.0}})), {4}, {-1.7293294f, -0.7869387f, 0, 1}));
    QVERIFY(sameFloats(*RUN_OK(act("Shrink", {{"lambd", 0.75}, {"bias", 0.5}})), {4}, {-1.5f, 0, 0, 0.5f}));
    QVERIFY(sameFloats(*RUN_OK(act("HardSigmoid")), {4}, {0.1f, 0.4f, 0.5f, 0.7f}));
    QVERIFY(sameFloats(*RUN_OK(act("Sign")), {4}, {-1, -1, 0, 1}));
    QVERIFY(sameFloats(*RUN_OK(act("Softplus")), {4}, {0.12692801f, 0.47407698f, 0.6931472f, 1.3132616f}));
    QVERIFY(sameFloats(*RUN_OK(act("Selu")), {4}, {-1.5201665f, -0.6917582f, 0, 1.050701f}));
    auto nan = runOp(makeOp(OpKind::Activation, {{"op", std::string("IsNaN")}}),
                     {f32({2}, {std::numeric_limits<float>::quiet_NaN(), 1})});
    QVERIFY(nan);
    QCOMPARE(nan->dtype(), DType::Bool);
    QVERIFY(sameFloats(*nan, {2}, {1, 0}));
    QVERIFY(!act("NoSuchActivation"));
}

void TestCpuKernelsBasic::castAndClip()
{
    auto toInt = RUN_OK(runOp(makeOp(OpKind::Cast, {{"to", std::string("I64")}}), {f32({3}, {1.7f, -2.5f, 3})}));
    QVERIFY(toInt);
    QCOMPARE(toInt->dtype(), DType::I64);
    QCOMPARE(toInt->values<std::int64_t>()[1], std::int64_t(-2));
    auto toBool = RUN_OK(runOp(makeOp(OpKind::Cast, {{"to", std::string("Bool")}}), {i64({3}, {0, 5, -1})}));
    QVERIFY(toBool);
    QVERIFY(sameFloats(*toBool, {3}, {0, 1, 1}));
    auto clip = RUN_OK(runOp(makeOp(OpKind::Clip, {{"min", -1.0}, {"max", 2.0}}), {f32({4}, {-3, 0, 1.5f, 9})}));
    QVERIFY(clip);
    QVERIFY(sameFloats(*clip, {4}, {-1, 0, 1.5f, 2}));
    auto clipInputs = RUN_OK(runOp(makeOp(OpKind::Clip), {f32({3}, {-3, 0, 9}), f32({}, {-2}), f32({}, {5})}));
    QVERIFY(clipInputs);
    QVERIFY(sameFloats(*clipInputs, {3}, {-2, 0, 5}));
}

void TestCpuKernelsBasic::sumOfThree()
{
    auto s = RUN_OK(runOp(makeOp(OpKind::Sum), {f32({2, 2}, {1, 2, 3, 4}), f32({2}, {10, 20}), f32({}, {100})}));
    QVERIFY(s);
    QVERIFY(sameFloats(*s, {2, 2}, {111, 122, 113, 124}));
}

void TestCpuKernelsBasic::reshapeFamily()
{
    const HostTensor x = f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    auto r = RUN_OK(runOp(makeOp(OpKind::Reshape, {{"new_shape", std::vector<std::int64_t>{0, -1}}}), {x}));
    QVERIFY(r);
    QCOMPARE(r->dims(), (std::vector<std::int64_t>{2, 6}));
    QCOMPARE(r->values<float>()[7], 7.0f);
    QVERIFY(!runOp(makeOp(OpKind::Reshape, {{"new_shape", std::vector<std::int64_t>{5, 5}}}), {x}));
    auto u = RUN_OK(runOp(makeOp(OpKind::Unsqueeze, {{"axes", std::vector<std::int64_t>{0, -1}}}), {x}));
    QVERIFY(u);
    QCOMPARE(u->dims(), (std::vector<std::int64_t>{1, 2, 3, 2, 1}));
    auto sq = RUN_OK(runOp(makeOp(OpKind::Squeeze), {f32({1, 3, 1}, {1, 2, 3})}));
    QVERIFY(sq);
    QCOMPARE(sq->dims(), (std::vector<std::int64_t>{3}));
    QVERIFY(!runOp(makeOp(OpKind::Squeeze, {{"axes", std::vector<std::int64_t>{1}}}), {f32({1, 3, 1}, {1, 2, 3})}));
    auto fl = RUN_OK(runOp(makeOp(OpKind::Flatten, {{"axis", std::int64_t(2)}}), {x}));
    QVERIFY(fl);
    QCOMPARE(fl->dims(), (std::vector<std::int64_t>{6, 2}));
    auto id = RUN_OK(runOp(makeOp(OpKind::Dropout, {{"ratio", 0.5}}), {x}));
    QVERIFY(id);
    QVERIFY(sameFloats(*id, {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

void TestCpuKernelsBasic::transposeAndSlice()
{
    const HostTensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
    auto t = RUN_OK(runOp(makeOp(OpKind::Transpose, {{"perm", std::vector<std::int64_t>{1, 0}}}), {x}));
    QVERIFY(t);
    QVERIFY(sameFloats(*t, {3, 2}, {1, 4, 2, 5, 3, 6}));
    const HostTensor y = f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    auto t3 = RUN_OK(runOp(makeOp(OpKind::Transpose, {{"perm", std::vector<std::int64_t>{2, 0, 1}}}), {y}));
    QVERIFY(t3);
    QVERIFY(sameFloats(*t3, {2, 2, 3}, {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11}));
    auto rev = RUN_OK(runOp(makeOp(OpKind::Slice, {{"starts", std::vector<std::int64_t>{-1}},
                                                   {"ends", std::vector<std::int64_t>{-100}},
                                                   {"axes", std::vector<std::int64_t>{1}},
                                                   {"steps", std::vector<std::int64_t>{-2}}}),
                            {x}));
    QVERIFY(rev);
    QVERIFY(sameFloats(*rev, {2, 2}, {3, 1, 6, 4}));
    auto sl = RUN_OK(runOp(makeOp(OpKind::Slice), {x, i64({1}, {1}), i64({1}, {1000}), i64({1}, {1})}));
    QVERIFY(sl);
    QVERIFY(sameFloats(*sl, {2, 2}, {2, 3, 5, 6}));
    auto nw = RUN_OK(runOp(makeOp(OpKind::Narrow, {{"axis", std::int64_t(0)}, {"start", std::int64_t(1)}, {"len", std::int64_t(1)}}), {x}));
    QVERIFY(nw);
    QVERIFY(sameFloats(*nw, {1, 3}, {4, 5, 6}));
    QVERIFY(!runOp(makeOp(OpKind::Narrow, {{"axis", std::int64_t(0)}, {"start", std::int64_t(1)}, {"len", std::int64_t(2)}}), {x}));
}

void TestCpuKernelsBasic::concatExpandTile()
{
    auto c = RUN_OK(runOp(makeOp(OpKind::Concat, {{"axis", std::int64_t(1)}}),
                          {f32({2, 1}, {1, 2}), f32({2, 2}, {3, 4, 5, 6})}));
    QVERIFY(c);
    QVERIFY(sameFloats(*c, {2, 3}, {1, 3, 4, 2, 5, 6}));
    auto e = runOp(makeOp(OpKind::Expand), {f32({3, 1}, {1, 2, 3}), i64({2}, {2, 1})});
    QVERIFY(!e); // [3,1] does not broadcast to [2,1]
    auto e2 = RUN_OK(runOp(makeOp(OpKind::Expand, {{"target_shape", std::vector<std::int64_t>{2, 1, 2}}}),
                           {f32({3, 1}, {1, 2, 3})}));
    QVERIFY(e2);
    QVERIFY(sameFloats(*e2, {2, 3, 2}, {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
    auto t = RUN_OK(runOp(makeOp(OpKind::Tile), {f32({1, 2}, {1, 2}), i64({2}, {2, 2})}));
    QVERIFY(t);
    QVERIFY(sameFloats(*t, {2, 4}, {1, 2, 1, 2, 1, 2, 1, 2}));
}

void TestCpuKernelsBasic::padModes()
{
    const HostTensor x = f32({1, 3}, {1, 2, 3});
    auto pad = [&](const char* mode) {
        return runOp(makeOp(OpKind::Pad, {{"mode", std::string(mode)}, {"pads", std::vector<std::int64_t>{0, 2, 0, 1}},
                                         {"value", 9.0}}),
                     {x});
    };
    QVERIFY(sameFloats(*RUN_OK(pad("constant")), {1, 6}, {9, 9, 1, 2, 3, 9}));
    QVERIFY(sameFloats(*RUN_OK(pad("reflect")), {1, 6}, {3, 2, 1, 2, 3, 2}));
    QVERIFY(sameFloats(*RUN_OK(pad("edge")), {1, 6}, {1, 1, 1, 2, 3, 3}));
    auto crop = RUN_OK(runOp(makeOp(OpKind::Pad, {{"pads", std::vector<std::int64_t>{0, -1, 0, 0}}}), {x}));
    QVERIFY(crop);
    QVERIFY(sameFloats(*crop, {1, 2}, {2, 3}));
}

void TestCpuKernelsBasic::gatherFamily()
{
    const HostTensor x = f32({3, 2}, {1, 2, 3, 4, 5, 6});
    auto g0 = RUN_OK(runOp(makeOp(OpKind::Gather, {{"axis", std::int64_t(0)}}), {x, i64({2}, {2, -3})}));
    QVERIFY(g0);
    QVERIFY(sameFloats(*g0, {2, 2}, {5, 6, 1, 2}));
    auto g1 = RUN_OK(runOp(makeOp(OpKind::Gather, {{"axis", std::int64_t(1)}}), {x, i64({1, 1}, {1})}));
    QVERIFY(g1);
    QVERIFY(sameFloats(*g1, {3, 1, 1}, {2, 4, 6}));
    auto bad = runOp(makeOp(OpKind::Gather, {{"axis", std::int64_t(0)}}), {x, i64({1}, {3})});
    QVERIFY(!bad);
    QVERIFY(bad.error().message.find("out of range") != std::string::npos);
    auto ge = RUN_OK(runOp(makeOp(OpKind::GatherElements, {{"axis", std::int64_t(1)}}),
                           {f32({2, 2}, {1, 2, 3, 4}), i64({2, 2}, {0, 0, 1, 0})}));
    QVERIFY(ge);
    QVERIFY(sameFloats(*ge, {2, 2}, {1, 1, 4, 3}));
}

void TestCpuKernelsBasic::constantOfShape()
{
    auto c = RUN_OK(runOp(makeOp(OpKind::ConstantOfShape, {{"value", 2.5}}), {i64({2}, {2, 3})}, Shape::of({2, 3})));
    QVERIFY(c);
    QVERIFY(sameFloats(*c, {2, 3}, {2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f}));

    // The "dtype" attribute chooses the element type; the value converts to it.
    auto ints = RUN_OK(runOp(makeOp(OpKind::ConstantOfShape, {{"value", 7.0}, {"dtype", std::string("I32")}}),
                             {i64({1}, {3})}, Shape::of({3}, DType::I32)));
    QVERIFY(ints);
    QCOMPARE(ints->dtype(), DType::I32);
    QCOMPARE(std::vector<std::int32_t>(ints->values<std::int32_t>().begin(), ints->values<std::int32_t>().end()),
             (std::vector<std::int32_t>{7, 7, 7}));
    auto unknown = runOp(makeOp(OpKind::ConstantOfShape, {{"dtype", std::string("F7")}}), {i64({1}, {3})});
    QVERIFY(!unknown);
    QVERIFY(unknown.error().message.find("unknown dtype 'F7'") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestCpuKernelsBasic)
#include "test_cpu_kernels_basic.moc"
