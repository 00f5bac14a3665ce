// SPDX-License-Identifier: MIT
// The 8-, 4- and 2-bit ONNX types held by conversion (ir/narrow_types.h): decoding bit patterns, rounding as ONNX's
// Cast does (values from the onnx 1.23 node suite's references, which ml_dtypes computes) and packed storage.
#include "ir/narrow_types.h"

#include <QTest>

#include <cmath>

using namespace costscope;

class TestNarrowTypes : public QObject {
    Q_OBJECT
private slots:
    void namesAndNumbers()
    {
        QCOMPARE(narrowTypeFromOnnx(17), NarrowType::F8E4M3FN);
        QCOMPARE(narrowTypeFromOnnx(26), NarrowType::I2);
        QVERIFY(!narrowTypeFromOnnx(16));
        QVERIFY(!narrowTypeFromOnnx(27));
        QCOMPARE(parseNarrowType("FLOAT8E5M2FNUZ"), NarrowType::F8E5M2FNUZ);
        QCOMPARE(narrowTypeName(NarrowType::F4E2M1), std::string_view("FLOAT4E2M1"));
        QVERIFY(!parseNarrowType("FLOAT"));
        QCOMPARE(carrierOf(NarrowType::F8E4M3FN), DType::F16);
        QCOMPARE(carrierOf(NarrowType::F8E8M0), DType::F32);
        QCOMPARE(carrierOf(NarrowType::I4), DType::I8);
        QCOMPARE(carrierOf(NarrowType::U2), DType::U8);
    }

    void decodesBitPatterns()
    {
        QCOMPARE(decodeNarrow(NarrowType::F8E4M3FN, 0x7E), 448.0);
        QVERIFY(std::isnan(decodeNarrow(NarrowType::F8E4M3FN, 0x7F)));
        QCOMPARE(decodeNarrow(NarrowType::F8E4M3FN, 0x01), std::ldexp(1.0, -9)); // smallest subnormal
        QVERIFY(std::signbit(decodeNarrow(NarrowType::F8E4M3FN, 0x80)));
        QCOMPARE(decodeNarrow(NarrowType::F8E4M3FNUZ, 0x7F), 240.0);
        QVERIFY(std::isnan(decodeNarrow(NarrowType::F8E4M3FNUZ, 0x80)));
        QVERIFY(std::isinf(decodeNarrow(NarrowType::F8E5M2, 0x7C)));
        QVERIFY(std::isnan(decodeNarrow(NarrowType::F8E5M2, 0x7D)));
        QCOMPARE(decodeNarrow(NarrowType::F8E5M2, 0x7B), 57344.0);
        QCOMPARE(decodeNarrow(NarrowType::F8E5M2FNUZ, 0x7F), 57344.0);
        QCOMPARE(decodeNarrow(NarrowType::F4E2M1, 0x7), 6.0);
        QCOMPARE(decodeNarrow(NarrowType::F4E2M1, 0xF), -6.0);
        QCOMPARE(decodeNarrow(NarrowType::F4E2M1, 0x1), 0.5);
        QCOMPARE(decodeNarrow(NarrowType::F8E8M0, 127), 1.0);
        QCOMPARE(decodeNarrow(NarrowType::F8E8M0, 0), std::ldexp(1.0, -127));
        QVERIFY(std::isnan(decodeNarrow(NarrowType::F8E8M0, 0xFF)));
        QCOMPARE(decodeNarrow(NarrowType::I4, 0x8), -8.0);
        QCOMPARE(decodeNarrow(NarrowType::I4, 0x7), 7.0);
        QCOMPARE(decodeNarrow(NarrowType::I2, 0x2), -2.0);
        QCOMPARE(decodeNarrow(NarrowType::U2, 0x3), 3.0);
    }

    void castsAsOnnxDoes()
    {
        const double inf = std::numeric_limits<double>::infinity();
        // test_cast_FLOAT_to_FLOAT8E4M3FN and its no_saturate twin.
        QCOMPARE(castToNarrow(NarrowType::F8E4M3FN, 0.47892547, true), 0.46875);
        QCOMPARE(castToNarrow(NarrowType::F8E4M3FN, 0.81910545, true), 0.8125);
        QCOMPARE(castToNarrow(NarrowType::F8E4M3FN, 1e6, true), 448.0);
        QCOMPARE(castToNarrow(NarrowType::F8E4M3FN, -inf, true), -448.0);
        QVERIFY(std::isnan(castToNarrow(NarrowType::F8E4M3FN, 1e6, false)));
        QCOMPARE(castToNarrow(NarrowType::F8E4M3FN, 1e-7, true), 0.0);
        QCOMPARE(castToNarrow(NarrowType::F8E4M3FN, 464.0, false), 448.0); // the tie rounds to the even 448
        QCOMPARE(castToNarrow(NarrowType::F8E5M2, 0.81910545, true), 0.875);
        QCOMPARE(castToNarrow(NarrowType::F8E5M2, inf, true), 57344.0);
        QVERIFY(std::isinf(castToNarrow(NarrowType::F8E5M2, 1e6, false)));
        QVERIFY(std::isnan(castToNarrow(NarrowType::F8E4M3FNUZ, inf, false)));
        QVERIFY(!std::signbit(castToNarrow(NarrowType::F8E5M2FNUZ, -1e-9, true))); // no negative zero
        // test_cast_FLOAT_to_FLOAT4E2M1: always saturating, ties to even, NaN to -0.
        QCOMPARE(castToNarrow(NarrowType::F4E2M1, 0.25, false), 0.0);
        QCOMPARE(castToNarrow(NarrowType::F4E2M1, -3.5, true), -4.0);
        QCOMPARE(castToNarrow(NarrowType::F4E2M1, 9.0, false), 6.0);
        QVERIFY(std::signbit(castToNarrow(NarrowType::F4E2M1, std::nan(""), true)));
        // test_cast_e8m0_FLOAT_to_FLOAT8E8M0: round up to a power of two.
        QCOMPARE(castToNarrow(NarrowType::F8E8M0, 0.124, true), 0.125);
        QCOMPARE(castToNarrow(NarrowType::F8E8M0, 1.1, true), 2.0);
        QCOMPARE(castToNarrow(NarrowType::F8E8M0, 4.0, true), 4.0);
        QCOMPARE(castToNarrow(NarrowType::F8E8M0, 0.0, true), std::ldexp(1.0, -127));
        // test_cast_FLOAT_to_INT4 / _UINT2: integers wrap.
        QCOMPARE(castToNarrow(NarrowType::I4, -9.0, true), 7.0);
        QCOMPARE(castToNarrow(NarrowType::I4, -8.0, true), -8.0);
        QCOMPARE(castToNarrow(NarrowType::U2, -3.0, true), 1.0);
        QCOMPARE(castToNarrow(NarrowType::U4, 2.9, true), 2.0);
        QCOMPARE(narrowIntegerRange(NarrowType::I4), std::make_pair(-8.0, 7.0));
        QCOMPARE(narrowIntegerRange(NarrowType::U2), std::make_pair(0.0, 3.0));
    }

    // Every value of a float format casts to itself: the grid the rounding uses is the format's own.
    void everyValueIsAFixedPoint()
    {
        for (NarrowType t : {NarrowType::F8E4M3FN, NarrowType::F8E4M3FNUZ, NarrowType::F8E5M2, NarrowType::F8E5M2FNUZ,
                             NarrowType::F4E2M1, NarrowType::F8E8M0}) {
            for (std::uint32_t bits = 0; bits < (1u << bitsOf(t)); ++bits) {
                const double v = decodeNarrow(t, bits);
                const double back = castToNarrow(t, v, false);
                if (t == NarrowType::F8E8M0 && bits == 0) {
                    // 2^-127 is a float32 subnormal: ONNX's to_float8e8m0 sees a fraction and rounds up to 2^-126.
                    QCOMPARE(back, std::ldexp(1.0, -126));
                    continue;
                }
                if (std::isnan(v))
                    QVERIFY2(std::isnan(back), qPrintable(QString::number(bits)));
                else
                    QVERIFY2(back == v,
                             qPrintable(
                                 QString("%1 %2: %3 -> %4").arg(narrowTypeName(t).data()).arg(bits).arg(v).arg(back)));
            }
        }
    }

    void unpacksAndCarries()
    {
        const std::uint8_t packed[] = {0x21, 0x0F};
        auto u4 = unpackNarrow(NarrowType::U4, packed, 2, 3);
        QVERIFY(u4);
        QCOMPARE(*u4, (std::vector<double>{1, 2, 15}));
        auto i2 = unpackNarrow(NarrowType::I2, packed, 1, 4); // 0x21 = 00 10 00 01
        QVERIFY(i2);
        QCOMPARE(*i2, (std::vector<double>{1, 0, -2, 0}));
        QVERIFY(!unpackNarrow(NarrowType::U4, packed, 1, 3));
        const auto half = carrierBytes(NarrowType::F8E4M3FN, {448.0, -0.5, std::ldexp(1.0, -9)});
        QCOMPARE(half, (std::vector<std::uint8_t>{0x00, 0x5F, 0x00, 0xB8, 0x00, 0x18}));
        const auto i8 = carrierBytes(NarrowType::I4, {-8.0, 7.0});
        QCOMPARE(i8, (std::vector<std::uint8_t>{0xF8, 0x07}));
    }
};

QTEST_APPLESS_MAIN(TestNarrowTypes)
#include "test_narrow_types.moc"
