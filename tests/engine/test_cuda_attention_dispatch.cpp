// SPDX-License-Identifier: MIT
// Which attention problems the CUDA backend's tensor-core kernel takes (cuda/attention_tensor_core.h): a pure
// function of the head dim, the storage type and the device's compute capability and shared memory; and which go to
// cuDNN's SDPA, with which tensors, or why not (cuda/cudnn_sdpa_config.h). Both checked without a GPU. The kernels'
// values are checked on the GPU machine (bench_cuda_sixteen_bit's attention cases, with cuDNN and without).
#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/attention_tensor_core.h"
#include "cuda/cudnn_sdpa_config.h"
#endif

#include <QTest>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

class TestCudaAttentionDispatch : public QObject {
    Q_OBJECT

private slots:
    void sixteenBitHeadDimsOfSixteen();
    void otherProblemsKeepTheScalarKernels();
    void sharedMemoryBoundsTheWidth();
    void sdpaTakesSixteenBitProblems();
    void sdpaBiasBroadcastsLikeTheMask();
    void sdpaRefusalsSayWhy();
    void cudnnCanBeSwitchedOff();
};

#ifdef COSTSCOPE_HAVE_CUDA
using costscope::cuda::ElemType;
using costscope::cuda::tensorCoreAttentionSharedBytes;
using costscope::cuda::tensorCoreAttentionWidth;

namespace {
constexpr std::size_t kHopperOptIn = 227 * 1024; // H100/H200: 227 KB a block
constexpr std::size_t kAda = 99 * 1024;          // sm_86/sm_89

using costscope::cuda::AttentionArgs;
using costscope::cuda::MaskKind;
using costscope::cuda::sdpaConfigFor;

// GPT-2's attention in bf16, per head: q [2, 12, 128, 64], k and v over `kvHeads` heads.
AttentionArgs perHead(std::int64_t kvHeads = 12, MaskKind mask = MaskKind::None)
{
    AttentionArgs a;
    a.mask = mask;
    a.storage = ElemType::BF16;
    a.batch = 2;
    a.heads = 12;
    a.headDim = 64;
    a.sq = a.sk = 128;
    a.kvGroup = 12 / kvHeads;
    a.qStrides[0] = 12 * 128 * 64;
    a.qStrides[1] = 128 * 64;
    a.qStrides[2] = 64;
    a.kvStrides[0] = kvHeads * 128 * 64;
    a.kvStrides[1] = 128 * 64;
    a.kvStrides[2] = 64;
    for (int d = 0; d < 3; ++d)
        a.oStrides[d] = a.qStrides[d];
    a.scale = 0.125f;
    return a;
}

std::string refusal(const AttentionArgs& a)
{
    auto c = sdpaConfigFor(a);
    return c ? std::string() : c.error().message;
}
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

void TestCudaAttentionDispatch::sdpaTakesSixteenBitProblems()
{
#ifdef COSTSCOPE_HAVE_CUDA
    AttentionArgs a = perHead(4, MaskKind::Causal); // three query heads per KV head
    auto c = sdpaConfigFor(a);
    QVERIFY2(c, refusal(a).c_str());
    QVERIFY(c->bf16);
    QCOMPARE(c->heads, std::int64_t(12));
    QCOMPARE(c->kvHeads, std::int64_t(4));
    QCOMPARE(c->headDim, std::int64_t(64));
    QVERIFY(c->causal);
    QCOMPARE(c->window, std::int64_t(0));
    QVERIFY(!c->bias);
    QCOMPARE(c->qStrides, (costscope::cuda::SdpaConfig::Dims4{12 * 128 * 64, 128 * 64, 64, 1}));
    QCOMPARE(c->kvStrides, (costscope::cuda::SdpaConfig::Dims4{4 * 128 * 64, 128 * 64, 64, 1}));
    QCOMPARE(c->scale, 0.125f);
    // Packed heads ([batch, seq, heads * head_dim], the fused pattern's layout) keep their strides; fp16 too.
    a.qStrides[1] = a.kvStrides[1] = 64;
    a.qStrides[2] = 12 * 64;
    a.kvStrides[2] = 4 * 64;
    a.storage = ElemType::F16;
    a.mask = MaskKind::Window;
    a.window = 16;
    c = sdpaConfigFor(a);
    QVERIFY2(c, refusal(a).c_str());
    QVERIFY(!c->bf16);
    QCOMPARE(c->qStrides[2], std::int64_t(12 * 64));
    QVERIFY(c->causal);
    QCOMPARE(c->window, std::int64_t(16));
    // Plans share a graph per key: a different problem has a different key.
    QVERIFY(c->key() != sdpaConfigFor(perHead())->key());
    QCOMPARE(sdpaConfigFor(perHead())->key(), sdpaConfigFor(perHead())->key());
    // The output has its own strides (AttentionArgs::oStrides): q's where q is dense, the dense packed heads where
    // q, k and v are read in place from the packed QKV tensor (rows of 3 * 768, qkv_views.h); the key tells the two
    // graphs apart.
    auto dense = sdpaConfigFor(perHead());
    QCOMPARE(dense->oStrides, dense->qStrides);
    AttentionArgs packed = perHead();
    packed.qStrides[0] = packed.kvStrides[0] = 128 * 3 * 768;
    packed.qStrides[1] = packed.kvStrides[1] = 64;
    packed.qStrides[2] = packed.kvStrides[2] = 3 * 768;
    packed.oStrides[0] = 128 * 768;
    packed.oStrides[1] = 64;
    packed.oStrides[2] = 768;
    auto inPlace = sdpaConfigFor(packed);
    QVERIFY2(inPlace, refusal(packed).c_str());
    QCOMPARE(inPlace->qStrides, (costscope::cuda::SdpaConfig::Dims4{128 * 3 * 768, 64, 3 * 768, 1}));
    QCOMPARE(inPlace->kvStrides, inPlace->qStrides);
    QCOMPARE(inPlace->oStrides, (costscope::cuda::SdpaConfig::Dims4{128 * 768, 64, 768, 1}));
    auto withStridedOut = *inPlace;
    withStridedOut.oStrides = inPlace->qStrides;
    QVERIFY(withStridedOut.key() != inPlace->key());
#else
    QSKIP("built without CUDA");
#endif
}

void TestCudaAttentionDispatch::sdpaBiasBroadcastsLikeTheMask()
{
#ifdef COSTSCOPE_HAVE_CUDA
    AttentionArgs a = perHead(12, MaskKind::Input);
    a.maskStorage = ElemType::BF16;
    // [batch, 1, sq, sk]: the heads broadcast (stride 0 in the kernel's strides).
    const std::int64_t strides[4] = {128 * 128, 0, 128, 1};
    std::copy(std::begin(strides), std::end(strides), a.maskStrides);
    auto c = sdpaConfigFor(a);
    QVERIFY2(c, refusal(a).c_str());
    QVERIFY(c->bias);
    QCOMPARE(c->biasDims, (costscope::cuda::SdpaConfig::Dims4{2, 1, 128, 128}));
    QCOMPARE(c->biasStrides, (costscope::cuda::SdpaConfig::Dims4{128 * 128, 128 * 128, 128, 1}));
    // [sq, sk] shared by every batch and head.
    a.maskStrides[0] = 0;
    c = sdpaConfigFor(a);
    QVERIFY(c);
    QCOMPARE(c->biasDims, (costscope::cuda::SdpaConfig::Dims4{1, 1, 128, 128}));
    // A mask read along the keys with a stride cuDNN does not take.
    a.maskStrides[3] = 2;
    QCOMPARE(refusal(a), std::string("mask not contiguous along the keys"));
#else
    QSKIP("built without CUDA");
#endif
}

void TestCudaAttentionDispatch::sdpaRefusalsSayWhy()
{
#ifdef COSTSCOPE_HAVE_CUDA
    AttentionArgs a = perHead();
    a.storage = ElemType::F32;
    QCOMPARE(refusal(a), std::string("F32 storage (cuDNN's SDPA takes fp16/bf16)"));
    a = perHead();
    a.softcap = 30;
    QCOMPARE(refusal(a), std::string("logit soft cap"));
    a = perHead(12, MaskKind::Input);
    a.maskIsBool = true;
    QCOMPARE(refusal(a), std::string("Bool mask"));
    for (std::int64_t d : {4, 12, 264}) {
        a = perHead();
        a.headDim = d;
        QCOMPARE(refusal(a), "head_dim " + std::to_string(d) + " (cuDNN: a multiple of 8 up to 256)");
    }
    a = perHead(12, MaskKind::Causal);
    a.sq = 130; // rows before the first key would see nothing
    QCOMPARE(refusal(a), std::string("causal with more queries than keys"));
    a = perHead();
    a.sq = 0;
    QCOMPARE(refusal(a), std::string("empty problem"));
    a = perHead(12, MaskKind::Window);
    QCOMPARE(refusal(a), std::string("window 0"));
#else
    QSKIP("built without CUDA");
#endif
}

void TestCudaAttentionDispatch::cudnnCanBeSwitchedOff()
{
#ifdef COSTSCOPE_HAVE_CUDA
    const char* before = std::getenv("COSTSCOPE_CUDNN");
    const std::string saved = before ? before : "";
    unsetenv("COSTSCOPE_CUDNN");
    QVERIFY(costscope::cuda::cudnnRequested());
    for (const char* off : {"off", "0"}) {
        setenv("COSTSCOPE_CUDNN", off, 1);
        QVERIFY(!costscope::cuda::cudnnRequested());
    }
    setenv("COSTSCOPE_CUDNN", "on", 1);
    QVERIFY(costscope::cuda::cudnnRequested());
    if (before)
        setenv("COSTSCOPE_CUDNN", saved.c_str(), 1);
    else
        unsetenv("COSTSCOPE_CUDNN");
#else
    QSKIP("built without CUDA");
#endif
}

QTEST_GUILESS_MAIN(TestCudaAttentionDispatch)
#include "test_cuda_attention_dispatch.moc"
