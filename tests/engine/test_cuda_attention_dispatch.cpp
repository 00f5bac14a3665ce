// SPDX-License-Identifier: MIT
// Which attention problems the CUDA backend's tensor-core kernel takes (cuda/attention_tensor_core.h): a pure
// function of the head dim, the storage type and the device's compute capability and shared memory, checked without
// a GPU. The kernel's values are checked on the GPU machine (bench_cuda_sixteen_bit's attention cases).
#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/attention_tensor_core.h"
#endif

#include <QTest>

#include <cstddef>
#include <cstdint>

class TestCudaAttentionDispatch : public QObject {
    Q_OBJECT

private slots:
    void sixteenBitHeadDimsOfSixteen();
    void otherProblemsKeepTheScalarKernels();
    void sharedMemoryBoundsTheWidth();
};

#ifdef COSTSCOPE_HAVE_CUDA
using costscope::cuda::ElemType;
using costscope::cuda::tensorCoreAttentionSharedBytes;
using costscope::cuda::tensorCoreAttentionWidth;

namespace {
constexpr std::size_t kHopperOptIn = 227 * 1024; // H100/H200: 227 KB a block
constexpr std::size_t kAda = 99 * 1024;          // sm_86/sm_89
} // namespace
#endif

void TestCudaAttentionDispatch::sixteenBitHeadDimsOfSixteen()
{
#ifdef COSTSCOPE_HAVE_CUDA
    for (ElemType t : {ElemType::BF16, ElemType::F16}) {
        QCOMPARE(tensorCoreAttentionWidth(64, t, 9, kHopperOptIn), 64); // GPT-2, BERT
        QCOMPARE(tensorCoreAttentionWidth(16, t, 9, kHopperOptIn), 32);
        QCOMPARE(tensorCoreAttentionWidth(32, t, 8, kHopperOptIn), 32);
        QCOMPARE(tensorCoreAttentionWidth(48, t, 9, kHopperOptIn), 64);
        QCOMPARE(tensorCoreAttentionWidth(80, t, 9, kHopperOptIn), 128);
        QCOMPARE(tensorCoreAttentionWidth(128, t, 9, kHopperOptIn), 128); // Llama
    }
#else
    QSKIP("built without CUDA");
#endif
}

void TestCudaAttentionDispatch::otherProblemsKeepTheScalarKernels()
{
#ifdef COSTSCOPE_HAVE_CUDA
    QCOMPARE(tensorCoreAttentionWidth(64, ElemType::F32, 9, kHopperOptIn), 0); // fp32: flash or tiled
    for (std::int64_t d : {0, 8, 40, 72, 100, 144, 256})                       // not a multiple of 16, or over 128
        QCOMPARE(tensorCoreAttentionWidth(d, ElemType::BF16, 9, kHopperOptIn), 0);
    QCOMPARE(tensorCoreAttentionWidth(64, ElemType::BF16, 7, kHopperOptIn), 0); // Volta/Turing: no bf16 fragments
#else
    QSKIP("built without CUDA");
#endif
}

void TestCudaAttentionDispatch::sharedMemoryBoundsTheWidth()
{
#ifdef COSTSCOPE_HAVE_CUDA
    // The 128-wide tile needs over 99 KB: an sm_86/89 card runs head dim 128 on the scalar kernels, 64 on tensor cores.
    QVERIFY(tensorCoreAttentionSharedBytes(128) > kAda);
    QVERIFY(tensorCoreAttentionSharedBytes(128) <= kHopperOptIn);
    QCOMPARE(tensorCoreAttentionWidth(128, ElemType::BF16, 8, kAda), 0);
    QCOMPARE(tensorCoreAttentionWidth(64, ElemType::BF16, 8, kAda), 64);
    // Every tile needs the opt-in over the default 48 KB (the launcher sets it).
    QVERIFY(tensorCoreAttentionSharedBytes(32) > 48 * 1024);
    QCOMPARE(tensorCoreAttentionWidth(32, ElemType::F16, 8, 48 * 1024), 0);
#else
    QSKIP("built without CUDA");
#endif
}

QTEST_GUILESS_MAIN(TestCudaAttentionDispatch)
#include "test_cuda_attention_dispatch.moc"
