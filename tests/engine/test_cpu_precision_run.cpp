// SPDX-License-Identifier: MIT
// The CPU backend runs a graph re-typed by the precision what-if (edit/precision_transform.h) by conversion: F16,
// BF16 and FP8 E4M3 tensors computed in F32 and rounded back, close to the fp32 run by each format's precision.
#include "edit/graph_builder.h"
#include "edit/precision_transform.h"
#include "ir/float_narrow.h"
#include "op_runner.h"
#include "tensor_proto.h"

#include <QtTest>

#include <cstring>

using namespace costscope;
using namespace costscope::test;

namespace {

// x [4,16] · w [16,8] + b [8] → Gelu → Softmax, every leaf an Input.
Graph mlp()
{
    edit::GraphBuilder g("mlp");
    const NodeId x = g.leaf(OpKind::Input, "x", Shape::of({4, 16}));
    const NodeId w = g.leaf(OpKind::Input, "w", Shape::of({16, 8}));
    const NodeId b = g.leaf(OpKind::Input, "b", Shape::of({8}));
    const NodeId y = g.op(OpKind::MatMul, {x, w});
    const NodeId z = g.sub(OpKind::Binary, "Add", {y, b});
    const NodeId a = g.sub(OpKind::Activation, "Gelu", {z});
    const NodeId s = g.op(OpKind::Softmax, {a});
    return g.finish({s});
}

std::vector<float> ramp(std::size_t n, float scale)
{
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = scale * std::sin(0.7f * float(i) + 0.3f);
    return v;
}

// `values` stored as `t` (F32, F16, BF16 or F8E4M3).
HostTensor typed(DType t, std::vector<std::int64_t> dims, const std::vector<float>& values)
{
    std::vector<std::uint8_t> bytes(values.size() * byteSize(t));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float v = values[i];
        switch (t) {
        case DType::F16: {
            const std::uint16_t h = floatToHalfBits(v);
            std::memcpy(&bytes[2 * i], &h, 2);
            break;
        }
        case DType::BF16: {
            const std::uint16_t h = floatToBf16Bits(v);
            std::memcpy(&bytes[2 * i], &h, 2);
            break;
        }
        case DType::F8E4M3:
            bytes[i] = floatToE4M3Bits(v);
            break;
        default:
            std::memcpy(&bytes[4 * i], &v, 4);
            break;
        }
    }
    return HostTensor::fromBytes(std::move(dims), t, bytes.data(), bytes.size());
}

Result<HostTensor> runAs(Precision p, DType storage)
{
    auto g = edit::withPrecision(mlp(), p);
    if (!g)
        return g.error();
    return runGraph(*g, {typed(storage, {4, 16}, ramp(64, 1.0f)), typed(storage, {16, 8}, ramp(128, 0.5f)),
                         typed(storage, {8}, ramp(8, 0.1f))});
}

} // namespace

class TestCpuPrecisionRun : public QObject {
    Q_OBJECT

private slots:
    void narrowFloatsRunByConversion_data()
    {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<double>("tolerance");
        // Each tolerance is a few units in the last place of the format's mantissa at the softmax's values (< 1):
        // the inputs are rounded once, the output once more, the math in between is F32.
        QTest::newRow("fp16") << int(Precision::Fp16) << int(DType::F16) << 4e-3;
        QTest::newRow("bf16") << int(Precision::Bf16) << int(DType::BF16) << 3e-2;
        QTest::newRow("fp8") << int(Precision::Fp8) << int(DType::F8E4M3) << 0.35;
    }
    void narrowFloatsRunByConversion()
    {
        QFETCH(int, precision);
        QFETCH(int, dtype);
        QFETCH(double, tolerance);
        auto reference = runAs(Precision::Fp32, DType::F32);
        QVERIFY2(reference, reference ? "" : reference.error().message.c_str());
        auto narrow = runAs(static_cast<Precision>(precision), static_cast<DType>(dtype));
        QVERIFY2(narrow, narrow ? "" : narrow.error().message.c_str());
        QCOMPARE(narrow->dtype(), static_cast<DType>(dtype));
        QCOMPARE(narrow->dims(), reference->dims());
        double worst = 0, sum = 0;
        for (std::uint64_t i = 0; i < reference->elements(); ++i) {
            const double want = reference->valueAsDouble(i), got = narrow->valueAsDouble(i);
            worst = std::max(worst, std::abs(got - want) / std::max(std::abs(want), 1e-3));
            sum += got;
        }
        QVERIFY2(worst <= tolerance, qPrintable(QStringLiteral("worst relative error %1").arg(worst)));
        QVERIFY2(std::abs(sum - 4.0) < 4 * tolerance, qPrintable(QString::number(sum))); // 4 softmax rows of sum 1
    }

    void fp8ReferenceTensorsRead()
    {
        // TensorProto{dims: [3], data_type: 17 (FLOAT8E4M3FN) or 19 (FLOAT8E5M2), raw_data: 3 bytes}.
        const std::string e4m3("\x08\x03\x10\x11\x4a\x03\x38\xbc\x7e", 9);
        auto t = parseTensorProto(e4m3);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->dtype(), DType::F8E4M3);
        QVERIFY(sameFloats(*t, {3}, {1.0f, -1.5f, 448.0f}));
        const std::string e5m2("\x08\x02\x10\x13\x4a\x02\x3c\x7b", 8);
        auto u = parseTensorProto(e5m2);
        QVERIFY2(u, u ? "" : u.error().message.c_str());
        QCOMPARE(u->dtype(), DType::F8E5M2);
        QVERIFY(sameFloats(*u, {2}, {1.0f, 57344.0f}));
    }
};

QTEST_GUILESS_MAIN(TestCpuPrecisionRun)
#include "test_cpu_precision_run.moc"
