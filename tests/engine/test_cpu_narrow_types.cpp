// SPDX-License-Identifier: MIT
// The types held by conversion (ir/narrow_types.h) through the engine: packed .pb tensors read into their carrier
// dtype, the CPU backend's Cast onto FLOAT8E4M3FN (saturating and not) and QuantizeLinear to INT4 (saturating to
// [-8, 7]), and a type the CPU backend has no conversion for refused by name.
#include "op_runner.h"
#include "tensor_proto.h"

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
std::vector<double> doubles(const HostTensor& t)
{
    std::vector<double> v;
    for (std::uint64_t i = 0; i < t.elements(); ++i)
        v.push_back(t.valueAsDouble(i));
    return v;
}
} // namespace

class TestCpuNarrowTypes : public QObject {
    Q_OBJECT
private slots:
    void readsPackedTensorProtos()
    {
        // dims [3], data_type 22 (INT4), raw_data 0x8F 0x07: low nibble first, so -1, -8, 7.
        const std::string int4{'\x08', '\x03', '\x10', '\x16', '\x4A', '\x02', '\x8F', '\x07'};
        auto t = parseTensorProto(int4);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->dtype(), DType::I8);
        QCOMPARE(doubles(*t), (std::vector<double>{-1, -8, 7}));
        // dims [2], data_type 17 (FLOAT8E4M3FN), raw 0x7E 0xB0: 448 and -0.5, in the IR's own F8E4M3 (the 8-bit
        // floats are dtypes; the other narrow types are held in a carrier).
        const std::string fp8{'\x08', '\x02', '\x10', '\x11', '\x4A', '\x02', '\x7E', '\xB0'};
        auto f = parseTensorProto(fp8);
        QVERIFY2(f, f ? "" : f.error().message.c_str());
        QCOMPARE(f->dtype(), DType::F8E4M3);
        QCOMPARE(doubles(*f), (std::vector<double>{448, -0.5}));
        // Too few bytes for dims [5] of UINT4.
        const std::string shortU4{'\x08', '\x05', '\x10', '\x15', '\x4A', '\x01', '\x21'};
        auto bad = parseTensorProto(shortU4);
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.find("too few for UINT4[5]") != std::string::npos, bad.error().message.c_str());
    }

    void castRoundsOntoFloat8()
    {
        const float inf = std::numeric_limits<float>::infinity();
        const auto x = f32({4}, {0.47892547f, 1e6f, -inf, 0.81910545f});
        auto sat =
            RUN_OK(runOp(makeOp(OpKind::Cast, {{"to", std::string("F16")}, {"onnx_to", std::string("FLOAT8E4M3FN")}}),
                         {x}, Shape::of({4}, DType::F16)));
        QVERIFY(sat);
        QCOMPARE(sat->dtype(), DType::F16);
        QCOMPARE(doubles(*sat), (std::vector<double>{0.46875, 448, -448, 0.8125}));
        auto wrap = RUN_OK(
            runOp(makeOp(OpKind::Cast,
                         {{"to", std::string("F16")}, {"onnx_to", std::string("FLOAT8E4M3FN")}, {"saturate", false}}),
                  {x}, Shape::of({4}, DType::F16)));
        QVERIFY(wrap);
        const auto v = doubles(*wrap);
        QVERIFY(std::isnan(v[1]) && std::isnan(v[2]));
        QCOMPARE(v[0], 0.46875);
    }

    void quantizeLinearSaturatesToInt4()
    {
        Op q = Op::unknown("QuantizeLinear");
        q.attrs.set("onnx_to", std::string("INT4"));
        const std::int8_t zero = 1;
        auto out = RUN_OK(
            runOp(q, {f32({4}, {0, 2.5f, 30, -30}), f32({1}, {2}), HostTensor::fromBytes({1}, DType::I8, &zero, 1)},
                  Shape::of({4}, DType::I8)));
        QVERIFY(out);
        QCOMPARE(out->dtype(), DType::I8);
        QCOMPARE(doubles(*out), (std::vector<double>{1, 2, 7, -8})); // round half to even: 1.25 -> 1
    }

    void unknownTypeIsNamed()
    {
        auto out = runOp(makeOp(OpKind::Cast, {{"to", std::string("U8")}, {"onnx_to", std::string("FLOAT6E3M2")}}),
                         {f32({1}, {1})}, Shape::of({1}, DType::U8));
        QVERIFY(!out);
        QVERIFY2(out.error().message.find("no FLOAT6E3M2 type") != std::string::npos, out.error().message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCpuNarrowTypes)
#include "test_cpu_narrow_types.moc"
