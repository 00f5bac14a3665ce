// SPDX-License-Identifier: MIT
// The specialised kernels of fused element-wise programs (engine/cuda/fused_codegen.h, fused_nvrtc.h): what the
// generator writes for a program (float4 lanes or one element per thread, constants baked in, no register array)
// and that NVRTC compiles it for the H100 and the A100. Needs no GPU; skips in a build without CUDA or NVRTC.
#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/fused_codegen.h"
#include "cuda/fused_nvrtc.h"
#endif

#include <QTest>

#include <string>

#ifdef COSTSCOPE_HAVE_CUDA
using namespace costscope::cuda;

namespace {
alignas(16) float g_buffer[64];

// x[rows, cols] * scale[cols] then LeakyRelu(0.2), plus shift[rows, 1]: a dense input, a row vector and a column.
FusedElementwiseArgs program(std::int64_t rows, std::int64_t cols, ElemType scaleType = ElemType::F32,
                             ElemType storage = ElemType::F32)
{
    FusedElementwiseArgs a;
    a.rank = 2;
    a.dims[0] = rows;
    a.dims[1] = cols;
    a.count = rows * cols;
    a.inputs = 3;
    for (int k = 0; k < 3; ++k)
        a.in[k] = g_buffer;
    a.out = g_buffer;
    a.inType[0] = storage;
    a.inType[1] = scaleType;
    a.inType[2] = storage;
    a.outType = storage;
    a.strides[0][0] = cols;
    a.strides[0][1] = 1;
    a.strides[1][1] = 1;
    a.strides[2][0] = 1;
    a.ops = 3;
    a.code[0].isBinary = true;
    a.code[0].binary = BinaryOp::Mul;
    a.code[0].a = 0;
    a.code[0].b = 1;
    a.code[1].act.op = ActOp::LeakyRelu;
    a.code[1].act.alpha = 0.2f;
    a.code[1].a = 3;
    a.code[2].isBinary = true;
    a.code[2].binary = BinaryOp::Add;
    a.code[2].a = 4;
    a.code[2].b = 2;
    return a;
}
} // namespace
#endif

class TestFusedCodegen : public QObject {
    Q_OBJECT

private slots:
    void vectorWidthFollowsTheInnermostDim();
    void sourceIsStraightLineWithConstants();
    void nvrtcCompilesEveryVariant_data();
    void nvrtcCompilesEveryVariant();
    void sixteenBitLoadsAndStoresFourAtOnce();
    void nvrtcErrorsCarryTheLog();
};

void TestFusedCodegen::sixteenBitLoadsAndStoresFourAtOnce()
{
#ifdef COSTSCOPE_HAVE_CUDA
    // bf16 x and shift, an F32 scale, a bf16 result: x as one uint2 of four bf16 per thread, the store packed so.
    const FusedSource bf16 = fusedElementwiseSource(program(6, 768, ElemType::F32, ElemType::BF16));
    QCOMPARE(bf16.vector, 4);
    const std::string& src = bf16.code;
    QVERIFY(src.find("const unsigned short* __restrict__ in0") != std::string::npos);
    QVERIFY(src.find("unsigned short* __restrict__ out") != std::string::npos);
    QVERIFY(src.find("const uint2 v0 = __ldg(reinterpret_cast<const uint2*>(in0 + o0));") != std::string::npos);
    QVERIFY(src.find("bf16BitsToFloat((unsigned short)(v0.y >> 16))") != std::string::npos); // lane 3
    QVERIFY(src.find("const float v2 = bf16BitsToFloat(in2[o2]);") != std::string::npos);    // the broadcast column
    QVERIFY(src.find("reinterpret_cast<const float4*>(in1 + o1)") != std::string::npos);     // the F32 scale
    QVERIFY(src.find("*reinterpret_cast<uint2*>(out + i) = uint2{unsigned(floatToBf16BitsRn(result.x))")
            != std::string::npos);
    // One element a thread: converted as loaded and as stored.
    const std::string scalar = fusedElementwiseSource(program(6, 7, ElemType::F32, ElemType::F16)).code;
    QVERIFY(scalar.find("out[i] = floatToHalfBitsRn(result);") != std::string::npos);
    QVERIFY(scalar.find("halfBitsToFloat(in0[o0])") != std::string::npos);
    FusedElementwiseArgs shifted = program(6, 8, ElemType::F32, ElemType::BF16);
    shifted.out = reinterpret_cast<char*>(g_buffer) + 8; // 8-byte aligned: four bf16 still go at once
    QCOMPARE(fusedElementwiseSource(shifted).vector, 4);
    shifted.out = reinterpret_cast<char*>(g_buffer) + 2;
    QCOMPARE(fusedElementwiseSource(shifted).vector, 1);
#else
    QSKIP("built without CUDA");
#endif
}

void TestFusedCodegen::vectorWidthFollowsTheInnermostDim()
{
#ifdef COSTSCOPE_HAVE_CUDA
    QCOMPARE(fusedElementwiseSource(program(6, 768)).vector, 4);
    QCOMPARE(fusedElementwiseSource(program(6, 768)).threads, 6 * 768 / 4);
    QCOMPARE(fusedElementwiseSource(program(6, 7)).vector, 1); // 7 is no multiple of 4
    QCOMPARE(fusedElementwiseSource(program(6, 7)).threads, 42);
    FusedElementwiseArgs strided = program(6, 8);
    strided.strides[0][1] = 2; // every other element of x
    QCOMPARE(fusedElementwiseSource(strided).vector, 1);
    FusedElementwiseArgs shifted = program(6, 8);
    shifted.out = g_buffer + 1; // no float4 store there
    QCOMPARE(fusedElementwiseSource(shifted).vector, 1);
    // An I64 input walked densely is read element by element; the others still as float4.
    const std::string mixed = fusedElementwiseSource(program(6, 8, ElemType::I64)).code;
    QVERIFY(mixed.find("const long long* __restrict__ in1") != std::string::npos);
    QVERIFY(mixed.find("float(in1[o1 + 3])") != std::string::npos);
    QVERIFY(mixed.find("reinterpret_cast<const float4*>(in0 + o0)") != std::string::npos);
#else
    QSKIP("built without CUDA");
#endif
}

void TestFusedCodegen::sourceIsStraightLineWithConstants()
{
#ifdef COSTSCOPE_HAVE_CUDA
    const std::string src = fusedElementwiseSource(program(6, 768)).code;
    QVERIFY(src.find(std::string("extern \"C\" __global__ void __launch_bounds__(256) ") + kFusedKernelName)
            != std::string::npos);
    QVERIFY(src.find("rem / 768") != std::string::npos);     // the dims are constants
    QVERIFY(src.find("o2 += d0 * 1;") != std::string::npos); // shift walks the rows only
    QVERIFY(src.find("o2 += d1") == std::string::npos);
    QVERIFY(src.find("__int_as_float(1045220557)") != std::string::npos); // LeakyRelu's alpha 0.2f, bit for bit
    QVERIFY(src.find("static_cast<BinaryOp>(2)") != std::string::npos);   // Mul
    QVERIFY(src.find("reg[") == std::string::npos);
    QVERIFY(src.find("result.w = r5_w;") != std::string::npos);
    // Past 2^31 elements the index is 64-bit.
    QVERIFY(fusedElementwiseSource(program(std::int64_t(1) << 20, 4096)).code.find("long long t =")
            != std::string::npos);
    QVERIFY(src.find("int t =") != std::string::npos);
#else
    QSKIP("built without CUDA");
#endif
}

void TestFusedCodegen::nvrtcCompilesEveryVariant_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<bool>("i64Scale");
    QTest::addColumn<QString>("arch");
    QTest::addColumn<int>("storage");
#ifdef COSTSCOPE_HAVE_CUDA // ElemType comes with the CUDA headers; without them the test skips on its own row
    const int f32 = int(ElemType::F32), f16 = int(ElemType::F16), bf16 = int(ElemType::BF16);
    for (const char* arch : {"sm_90", "sm_80"}) {
        QTest::addRow("float4 %s", arch) << 6 << 768 << false << QString(arch) << f32;
        QTest::addRow("scalar %s", arch) << 6 << 7 << false << QString(arch) << f32;
        QTest::addRow("I64 input %s", arch) << 6 << 8 << true << QString(arch) << f32;
        QTest::addRow("bf16 x4 %s", arch) << 6 << 768 << false << QString(arch) << bf16;
        QTest::addRow("bf16 scalar %s", arch) << 6 << 7 << false << QString(arch) << bf16;
        QTest::addRow("f16 x4 %s", arch) << 6 << 768 << false << QString(arch) << f16;
    }
#else
    QTest::addRow("no CUDA") << 0 << 0 << false << QString() << 0;
#endif
}

void TestFusedCodegen::nvrtcCompilesEveryVariant()
{
#ifdef COSTSCOPE_HAVE_CUDA
    std::string why;
    if (!nvrtcEnabled(&why))
        QSKIP(why.c_str());
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(bool, i64Scale);
    QFETCH(QString, arch);
    QFETCH(int, storage);
    const FusedSource src = fusedElementwiseSource(
        program(rows, cols, i64Scale ? ElemType::I64 : ElemType::F32, static_cast<ElemType>(storage)));
    const auto cubin = compileFusedSource(src.code, arch.toStdString());
    QVERIFY2(cubin.ok(), cubin.ok() ? "" : cubin.error().message.c_str());
    QVERIFY(cubin->size() > 1000);
    // ELF device code.
    QCOMPARE(std::string(cubin->data() + 1, 3), std::string("ELF"));
#else
    QSKIP("built without CUDA");
#endif
}

void TestFusedCodegen::nvrtcErrorsCarryTheLog()
{
#ifdef COSTSCOPE_HAVE_CUDA
    std::string why;
    if (!nvrtcEnabled(&why))
        QSKIP(why.c_str());
    const auto cubin = compileFusedSource("extern \"C\" __global__ void k() { undeclared_name(); }", "sm_90");
    QVERIFY(!cubin.ok());
    const std::string message = cubin.error().message;
    QVERIFY2(message.find("NVRTC: compiling a fused kernel for sm_90 failed") != std::string::npos, message.c_str());
    QVERIFY2(message.find("undeclared_name") != std::string::npos, message.c_str());
#else
    QSKIP("built without CUDA");
#endif
}

QTEST_GUILESS_MAIN(TestFusedCodegen)
#include "test_fused_codegen.moc"
