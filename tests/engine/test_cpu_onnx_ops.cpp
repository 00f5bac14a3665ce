// SPDX-License-Identifier: MIT
// The CPU backend's ONNX coverage added for the node conformance suite (scripts/conformance.sh, which checks every op
// against the suite's reference outputs): dtypes by conversion (F16, BF16, narrow and unsigned integers), logical and
// bitwise ops, more activations and reductions, Mod's two modes, the ONNX-only ops run by name (Shape, ArgMax,
// Trilu, CumSum, Range), and TensorProto files that are not tensors.
#include "half.h"
#include "op_runner.h"
#include "tensor_proto.h"

#include <QTest>

#include <limits>

using namespace costscope;
using namespace costscope::test;

namespace {
HostTensor typed(DType t, std::vector<std::int64_t> dims, const std::vector<double>& values)
{
    HostTensor f = f32(dims, std::vector<float>(values.begin(), values.end()));
    HostTensor out(dims, t);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        switch (t) {
        case DType::F16: out.values<std::uint16_t>()[i] = floatToHalf(float(v)); break;
        case DType::BF16: out.values<std::uint16_t>()[i] = floatToBf16(float(v)); break;
        case DType::U8: out.values<std::uint8_t>()[i] = static_cast<std::uint8_t>(v); break;
        case DType::U32: out.values<std::uint32_t>()[i] = static_cast<std::uint32_t>(v); break;
        case DType::I8: out.values<std::int8_t>()[i] = static_cast<std::int8_t>(v); break;
        case DType::Bool: out.values<std::uint8_t>()[i] = v != 0; break;
        case DType::I32: out.values<std::int32_t>()[i] = static_cast<std::int32_t>(v); break;
        default: return f;
        }
    }
    return out;
}

Op named(const std::string& onnxOp, std::initializer_list<std::pair<std::string, AttrValue>> attrs = {})
{
    Op op = Op::unknown(onnxOp);
    for (const auto& [k, v] : attrs)
        op.attrs.set(k, v);
    return op;
}
} // namespace

class TestCpuOnnxOps : public QObject {
    Q_OBJECT
private slots:
    void halfConversionsRoundToNearestEven();
    void halfInputsComputeInFloat();
    void narrowAndUnsignedIntegers();
    void logicalAndBitwise();
    void moreActivations();
    void modModes();
    void compositeReductions();
    void onnxOpsByName();
    void nonTensorProtoIsAnError();
};

void TestCpuOnnxOps::halfConversionsRoundToNearestEven()
{
    QCOMPARE(halfToFloat(floatToHalf(1.0f)), 1.0f);
    QCOMPARE(floatToHalf(65504.0f), std::uint16_t(0x7bff));
    QCOMPARE(floatToHalf(65520.0f), std::uint16_t(0x7c00)); // halfway to the next binade: rounds to inf
    QCOMPARE(floatToHalf(1.0f + 1.0f / 2048), std::uint16_t(0x3c00)); // a tie rounds to the even mantissa
    QCOMPARE(halfToFloat(0x0001), 5.9604644775390625e-8f);            // the smallest subnormal
    QCOMPARE(floatToHalf(5.9604644775390625e-8f), std::uint16_t(0x0001));
    QVERIFY(std::isnan(halfToFloat(floatToHalf(std::numeric_limits<float>::quiet_NaN()))));
    QCOMPARE(bf16ToFloat(floatToBf16(3.0f)), 3.0f);
    QCOMPARE(floatToBf16(1.0f + 1.0f / 256), std::uint16_t(0x3f80)); // tie to even
}

void TestCpuOnnxOps::halfInputsComputeInFloat()
{
    const HostTensor a = typed(DType::F16, {3}, {1.5, -2, 0.25}), b = typed(DType::F16, {3}, {0.5, 4, 1});
    auto sum = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Add")}}), {a, b}, Shape::of({3}, DType::F16)));
    QVERIFY(sum);
    QCOMPARE(sum->dtype(), DType::F16); // given back in the stated dtype
    QVERIFY(sameFloats(*sum, {3}, {2, 2, 1.25}));
    auto relu = RUN_OK(runOp(makeOp(OpKind::Activation, {{"op", std::string("Relu")}}), {a}, Shape::of({3}, DType::F16)));
    QVERIFY(relu);
    QVERIFY(sameFloats(*relu, {3}, {1.5, 0, 0.25}));
    const HostTensor m = typed(DType::BF16, {2, 2}, {1, 2, 3, 4});
    auto mean = RUN_OK(runOp(makeOp(OpKind::Reduce, {{"op", std::string("Mean")}, {"axes", std::vector<std::int64_t>{1}},
                                                    {"keep_dim", false}}),
                             {m}, Shape::of({2}, DType::BF16)));
    QVERIFY(mean);
    QCOMPARE(mean->dtype(), DType::BF16);
    QVERIFY(sameFloats(*mean, {2}, {1.5, 3.5}));
    auto cast = RUN_OK(runOp(makeOp(OpKind::Cast, {{"to", std::string("F16")}}), {f32({2}, {0.1f, 70000})}));
    QVERIFY(cast);
    QCOMPARE(cast->values<std::uint16_t>()[0], floatToHalf(0.1f));
    QCOMPARE(cast->values<std::uint16_t>()[1], std::uint16_t(0x7c00));
}

void TestCpuOnnxOps::narrowAndUnsignedIntegers()
{
    auto sub = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Sub")}}),
                            {typed(DType::U32, {2}, {5, 1}), typed(DType::U32, {2}, {2, 2})}, Shape::of({2}, DType::U32)));
    QVERIFY(sub);
    QCOMPARE(sub->dtype(), DType::U32);
    QCOMPARE(sub->values<std::uint32_t>()[0], std::uint32_t(3));
    QCOMPARE(sub->values<std::uint32_t>()[1], std::uint32_t(4294967295u)); // wraps as uint32 arithmetic does
    auto lt = RUN_OK(runOp(makeOp(OpKind::Compare, {{"op", std::string("Lt")}}),
                           {typed(DType::I8, {2}, {-3, 4}), typed(DType::I8, {2}, {0, 0})}, Shape::of({2}, DType::Bool)));
    QVERIFY(lt);
    QVERIFY(sameFloats(*lt, {2}, {1, 0}));
    auto big = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Max")}}),
                            {typed(DType::I8, {1}, {-7}), typed(DType::I8, {1}, {9})}, Shape::of({1}, DType::I8)));
    QVERIFY(big);
    QCOMPARE(big->values<std::int8_t>()[0], std::int8_t(9));
    // Pow of a float by an integer: the exponent meets the base's dtype.
    auto pow = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Pow")}}), {f32({2}, {2, 3}), i64({2}, {3, 2})},
                            Shape::of({2}, DType::F32)));
    QVERIFY(pow);
    QVERIFY(sameFloats(*pow, {2}, {8, 9}));
}

void TestCpuOnnxOps::logicalAndBitwise()
{
    const HostTensor t = typed(DType::Bool, {4}, {1, 1, 0, 0}), u = typed(DType::Bool, {4}, {1, 0, 1, 0});
    for (auto [op, want] : {std::pair{"And", std::vector<float>{1, 0, 0, 0}}, std::pair{"Or", std::vector<float>{1, 1, 1, 0}},
                            std::pair{"Xor", std::vector<float>{0, 1, 1, 0}}}) {
        auto r = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string(op)}}), {t, u}, Shape::of({4}, DType::Bool)));
        QVERIFY(r);
        QCOMPARE(r->dtype(), DType::Bool);
        QVERIFY2(sameFloats(*r, {4}, want), op);
    }
    auto notOp = RUN_OK(runOp(makeOp(OpKind::Activation, {{"op", std::string("Not")}}), {t}, Shape::of({4}, DType::Bool)));
    QVERIFY(notOp);
    QVERIFY(sameFloats(*notOp, {4}, {0, 0, 1, 1}));
    const HostTensor a = typed(DType::I32, {2}, {12, -1}), b = typed(DType::I32, {2}, {10, 1});
    auto band = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("BitwiseAnd")}}), {a, b}, Shape::of({2}, DType::I32)));
    QVERIFY(band);
    QVERIFY(sameFloats(*band, {2}, {8, 1}));
    auto bnot = RUN_OK(runOp(makeOp(OpKind::Activation, {{"op", std::string("BitwiseNot")}}), {a}, Shape::of({2}, DType::I32)));
    QVERIFY(bnot);
    QVERIFY(sameFloats(*bnot, {2}, {-13, 0}));
    const HostTensor x = typed(DType::U8, {3}, {16, 4, 1}), by = typed(DType::U8, {3}, {1, 2, 8});
    auto right = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("BitShift")}, {"direction", std::string("RIGHT")}}),
                              {x, by}, Shape::of({3}, DType::U8)));
    QVERIFY(right);
    QVERIFY(sameFloats(*right, {3}, {8, 1, 0}));
    auto left = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("BitShift")}, {"direction", std::string("LEFT")}}),
                             {x, by}, Shape::of({3}, DType::U8)));
    QVERIFY(left);
    QVERIFY(sameFloats(*left, {3}, {32, 16, 0})); // 1 << 8 leaves uint8
    auto onFloats = runOp(makeOp(OpKind::Binary, {{"op", std::string("BitwiseOr")}}), {f32({1}, {1}), f32({1}, {2})});
    QVERIFY(!onFloats);
    QVERIFY(onFloats.error().message.find("takes integers") != std::string::npos);
}

void TestCpuOnnxOps::moreActivations()
{
    const float inf = std::numeric_limits<float>::infinity();
    auto isinf = RUN_OK(runOp(makeOp(OpKind::Activation, {{"op", std::string("IsInf")}, {"detect_positive", false}}),
                              {f32({3}, {inf, -inf, 1})}, Shape::of({3}, DType::Bool)));
    QVERIFY(isinf);
    QVERIFY(sameFloats(*isinf, {3}, {0, 1, 0}));
    auto atanh = RUN_OK(runOp(makeOp(OpKind::Activation, {{"op", std::string("Atanh")}}), {f32({1}, {0.5f})}));
    QVERIFY(atanh);
    QVERIFY(sameFloats(*atanh, {1}, {0.54930614f}));
    auto hs = RUN_OK(runOp(makeOp(OpKind::Activation, {{"op", std::string("HardSwish")}}), {f32({3}, {-4, 1, 4})}));
    QVERIFY(hs);
    QVERIFY(sameFloats(*hs, {3}, {0, 1.0f * (1.0f / 6 + 0.5f), 4}));
    auto absInt = RUN_OK(runOp(makeOp(OpKind::Activation, {{"op", std::string("Abs")}}), {i64({2}, {-3, 2})},
                               Shape::of({2}, DType::I64)));
    QVERIFY(absInt);
    QCOMPARE(absInt->dtype(), DType::I64);
    QCOMPARE(absInt->values<std::int64_t>()[0], std::int64_t(3));
}

void TestCpuOnnxOps::modModes()
{
    auto mod = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Mod")}}), {f32({2}, {-4.5f, 4.5f}), f32({2}, {2, -2})}));
    QVERIFY(mod);
    QVERIFY(sameFloats(*mod, {2}, {1.5f, -1.5f})); // fmod=0: the divisor's sign, floats too
    auto fmod = RUN_OK(runOp(makeOp(OpKind::Binary, {{"op", std::string("Mod")}, {"fmod", true}}),
                             {i64({2}, {-7, 7}), i64({2}, {3, -3})}, Shape::of({2}, DType::I64)));
    QVERIFY(fmod);
    QCOMPARE(fmod->values<std::int64_t>()[0], std::int64_t(-1)); // fmod=1: the dividend's sign
    QCOMPARE(fmod->values<std::int64_t>()[1], std::int64_t(1));
}

void TestCpuOnnxOps::compositeReductions()
{
    const HostTensor x = f32({2, 2}, {3, -4, 1, 2});
    auto reduce = [&](const char* op) {
        return runOp(makeOp(OpKind::Reduce, {{"op", std::string(op)}, {"axes", std::vector<std::int64_t>{1}},
                                             {"keep_dim", false}}),
                     {x});
    };
    auto l1 = RUN_OK(reduce("L1")), l2 = RUN_OK(reduce("L2")), sq = RUN_OK(reduce("SumSquare"));
    auto lse = RUN_OK(reduce("LogSumExp"));
    QVERIFY(l1 && l2 && sq && lse);
    QVERIFY(sameFloats(*l1, {2}, {7, 3}));
    QVERIFY(sameFloats(*l2, {2}, {5, std::sqrt(5.0f)}));
    QVERIFY(sameFloats(*sq, {2}, {25, 5}));
    QVERIFY(sameFloats(*lse, {2}, {float(std::log(std::exp(3.0) + std::exp(-4.0))), float(std::log(std::exp(1.0) + std::exp(2.0)))}));
}

void TestCpuOnnxOps::onnxOpsByName()
{
    const HostTensor x = f32({2, 3}, {1, 5, 2, 7, 0, 7});
    auto shape = RUN_OK(runOp(named("Shape", {{"start", std::int64_t{-1}}}), {x}, Shape::of({1}, DType::I64)));
    QVERIFY(shape);
    QCOMPARE(shape->values<std::int64_t>()[0], std::int64_t(3));
    auto argmax = RUN_OK(runOp(named("ArgMax", {{"axis", std::int64_t{1}}, {"select_last_index", std::int64_t{1}}}), {x},
                               Shape::of({2, 1}, DType::I64)));
    QVERIFY(argmax);
    QCOMPARE(argmax->dims(), (std::vector<std::int64_t>{2, 1}));
    QCOMPARE(argmax->values<std::int64_t>()[1], std::int64_t(2)); // the last of the two 7s
    auto tril = RUN_OK(runOp(named("Trilu", {{"upper", std::int64_t{0}}}), {f32({2, 2}, {1, 2, 3, 4})}));
    QVERIFY(tril);
    QVERIFY(sameFloats(*tril, {2, 2}, {1, 0, 3, 4}));
    auto cumsum = RUN_OK(runOp(named("CumSum", {{"exclusive", std::int64_t{1}}, {"reverse", std::int64_t{1}}}),
                               {i64({3}, {1, 2, 3}), i64({}, {0})}, Shape::of({3}, DType::I64)));
    QVERIFY(cumsum);
    QVERIFY(sameFloats(*cumsum, {3}, {5, 3, 0}));
    auto range = RUN_OK(runOp(named("Range"), {f32({}, {1}), f32({}, {2}), f32({}, {0.25f})}));
    QVERIFY(range);
    QVERIFY(sameFloats(*range, {4}, {1, 1.25f, 1.5f, 1.75f}));
    // Class 1 of row 0 and class 0 of row 1, weighted 2 and 1, the second row ignored: mean = -(2 * -0.5) / 2.
    auto nll = RUN_OK(runOp(named("NegativeLogLikelihoodLoss", {{"ignore_index", std::int64_t{0}}}),
                            {f32({2, 2}, {-0.1f, -0.5f, -0.7f, -0.2f}), i64({2}, {1, 0}), f32({2}, {1, 2})}));
    QVERIFY(nll);
    QVERIFY(sameFloats(*nll, {}, {0.5f}));
    auto unknown = runOp(named("NoSuchOp"), {x});
    QVERIFY(!unknown);
    QVERIFY(unknown.error().message.find("cannot run op NoSuchOp") != std::string::npos);
}

void TestCpuOnnxOps::nonTensorProtoIsAnError()
{
    // test_identity_opt's input_0.pb, an OptionalProto: read as a TensorProto, its name "opt_in" became six dims of
    // about 100 each and the reader crashed allocating 10^12 elements.
    const std::string optional(
        "\x0a\x06\x6f\x70\x74\x5f\x69\x6e\x10\x03\x2a\x1e\x10\x01\x1a\x1a"
        "\x08\x05\x10\x01\x4a\x14\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00"
        "\x40\x40\x00\x00\x80\x40\x00\x00\xa0\x40",
        42);
    auto t = parseTensorProto(optional);
    QVERIFY(!t);
    QVERIFY2(t.error().message.find("too large") != std::string::npos || t.error().message.find("needs") != std::string::npos,
             t.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestCpuOnnxOps)
#include "test_cpu_onnx_ops.moc"
