// SPDX-License-Identifier: MIT
#pragma once
// Host-side launchers of the backend's own kernels (the .cu files). Every launcher enqueues on `stream` and
// returns at once; all shapes are fixed when the plan is compiled, so a CUDA graph can capture the launches.

#include <cuda_runtime.h>

#include <cstdint>

namespace costscope::cuda {

constexpr int kMaxRank = 8;

// dst[dstBase + sum(i_d * dstStrides_d)] = src[srcBase + sum(i_d * srcStrides_d)] over dims (element strides).
struct StridedCopyArgs {
    int rank = 0;
    std::int64_t dims[kMaxRank] = {};
    std::int64_t srcStrides[kMaxRank] = {};
    std::int64_t dstStrides[kMaxRank] = {};
    std::int64_t srcBase = 0, dstBase = 0;
    int elementSize = 4;
};
void launchStridedCopy(const void* src, void* dst, const StridedCopyArgs& a, cudaStream_t s);

// And, Or and Xor are ONNX's logical ops: Bool operands (stored as U8 0/1), any non-zero reads as true.
enum class BinaryOp : int { Add, Sub, Mul, Div, Pow, Max, Min, Mod, PRelu, And, Or, Xor };
// out = a op b with numpy broadcasting: strides are 0 along broadcast dims of the output shape.
struct BinaryArgs {
    BinaryOp op = BinaryOp::Add;
    int rank = 0;
    std::int64_t dims[kMaxRank] = {};
    std::int64_t aStrides[kMaxRank] = {};
    std::int64_t bStrides[kMaxRank] = {};
    std::int64_t count = 0;
    bool sameShape = false; // both inputs dense in the output's shape: the vectorised path
};
void launchBinary(const float* a, const float* b, float* out, const BinaryArgs& args, cudaStream_t s);

// Element types of the typed element-wise kernels (Bool shares U8's bytes). F16 and BF16 are storage types of the
// fused element-wise programs only (loaded to float, stored rounding to nearest even); the typed kernels take the
// others.
enum class ElemType : int { F32, F64, I64, I32, U8, F16, BF16 };
// Binary over F64, I64, I32 or U8 with the CPU backend's integer rules: division by zero gives 0, Mod takes the
// divisor's sign, Pow goes through double.
void launchBinaryTyped(const void* a, const void* b, void* out, ElemType t, const BinaryArgs& args, cudaStream_t s);
enum class CompareOp : int { Eq, Ne, Lt, Le, Gt, Ge };
// out (Bool) = a op b, broadcast as BinaryArgs says (its op is unused).
void launchCompare(const void* a, const void* b, std::uint8_t* out, ElemType t, CompareOp op, const BinaryArgs& args,
                   cudaStream_t s);
// out = cond ? x : y, the three broadcast into the output's shape; any element size of 1, 2, 4 or 8 bytes.
struct WhereArgs {
    int rank = 0;
    std::int64_t dims[kMaxRank] = {};
    std::int64_t condStrides[kMaxRank] = {}, xStrides[kMaxRank] = {}, yStrides[kMaxRank] = {};
    std::int64_t count = 0;
    int elementSize = 4;
};
void launchWhere(const std::uint8_t* cond, const void* x, const void* y, void* out, const WhereArgs& a,
                 cudaStream_t s);
// y = min(max(x, lo), hi) computed in double, as the CPU backend does. A bound pointer, when set, points at one
// element of type t on the device and replaces the host value (bounds given as graph tensors).
struct ClipBounds {
    double lo = 0, hi = 0;
    const void* loPtr = nullptr;
    const void* hiPtr = nullptr;
};
void launchClip(const void* x, void* y, ElemType t, std::int64_t count, const ClipBounds& b, cudaStream_t s);
// out[i] = isnan(x[i]) as a Bool byte.
void launchIsNaN(const float* x, std::uint8_t* out, std::int64_t count, cudaStream_t s);

enum class ActOp : int {
    Relu, Sigmoid, Tanh, Exp, Log, Sqrt, Rsqrt, Neg, Abs, Erf, Sign, Softplus, Softsign, IsNaN, Reciprocal, Floor,
    Ceil, Round, Sin, Cos, Gelu, GeluApprox, Silu, LeakyRelu, Elu, Selu, Shrink, HardSigmoid, None
};
struct ActArgs {
    ActOp op = ActOp::None;
    float alpha = 0, beta = 0, gamma = 0, bias = 0, lambd = 0;
};
void launchActivation(const float* x, float* y, std::int64_t count, const ActArgs& act, cudaStream_t s);
// y[r, j] = act(y[r, j] + bias[j]) in place over rows of n; bias may be null.
void launchBiasActivation(float* y, const float* bias, std::int64_t rows, std::int64_t n, const ActArgs& act,
                          cudaStream_t s);

enum class ReduceOp : int { Sum, Mean, Max, Min, Prod };
// Reduces each of `rows` contiguous runs of n elements to one value.
void launchReduceRows(const float* x, float* y, std::int64_t rows, std::int64_t n, ReduceOp op, cudaStream_t s);
// General case: output element o walks the kept dims (iterDims/strides) and accumulates over the reduced ones.
struct ReduceArgs {
    ReduceOp op = ReduceOp::Sum;
    int keptRank = 0, redRank = 0;
    std::int64_t keptDims[kMaxRank] = {}, keptStrides[kMaxRank] = {};
    std::int64_t redDims[kMaxRank] = {}, redStrides[kMaxRank] = {};
    std::int64_t outCount = 0, redCount = 0;
};
void launchReduceStrided(const float* x, float* y, const ReduceArgs& a, cudaStream_t s);

// Softmax (or log-softmax) along an axis of extent n, with `inner` elements after it. x and y hold `storage` (F32,
// F16 or BF16); the row's max and sum are taken in F32.
void launchSoftmax(const void* x, void* y, ElemType storage, std::int64_t outer, std::int64_t n, std::int64_t inner,
                   bool logarithm, cudaStream_t s);
// Layer norm (rms = false) or RMS norm over rows of n; scale and bias hold n values or are null. With
// paramsPerRow > 0 (InstanceNorm) they hold one value per row instead, row r using index r % paramsPerRow. x, y,
// scale and bias hold `storage` (F32, F16 or BF16); mean and variance are taken in F32.
void launchNorm(const void* x, void* y, ElemType storage, std::int64_t rows, std::int64_t n, float eps,
                const void* scale, const void* bias, bool rms, cudaStream_t s, std::int64_t paramsPerRow = 0);

enum class MaskKind : int { None, Causal, Window, Input };
struct AttentionArgs {
    const float *q = nullptr, *k = nullptr, *v = nullptr;
    float* out = nullptr;
    std::int64_t batch = 0, heads = 0, headDim = 0, sq = 0, sk = 0;
    float scale = 1, softcap = 0;
    MaskKind mask = MaskKind::None;
    std::int64_t window = 0;
    const void* maskData = nullptr;
    bool maskIsBool = false;
    ElemType maskStorage = ElemType::F32; // an additive mask's elements: F32, F16 or BF16
    std::int64_t maskStrides[4] = {}; // over [batch, heads, sq, sk]
    // Element strides (batch, head, row) of q, of k and v over KV heads, and of the output; query head h reads KV
    // head h / kvGroup (packed or per-head layouts, grouped KV heads: engine/attention_layout.h). The output's are
    // q's, unless q, k and v are read in place as rows of one packed QKV tensor (engine/qkv_views.h) and the output
    // is dense.
    std::int64_t qStrides[3] = {}, kvStrides[3] = {}, oStrides[3] = {}, kvGroup = 1;
    // The elements q, k, v and out hold (their pointers' type notwithstanding): F32, or F16/BF16, which the flash and
    // tiled kernels load to float and store rounded (head dims up to 128; the warp-per-row kernel takes F32 only).
    ElemType storage = ElemType::F32;
};
// Returns false when the head dim is beyond what the fused kernel holds in registers (for 16-bit storage, beyond
// the tiled kernel's 128).
bool attentionSupportsHeadDim(std::int64_t headDim, ElemType storage = ElemType::F32);
void launchAttention(const AttentionArgs& a, cudaStream_t s);

// out[o, i, r] = x[o, idx[i], r]: `inner` elements of `elementSize` bytes per row; out-of-range indices give zeros.
void launchGather(const void* x, const void* indices, bool indices64, void* out, std::int64_t outer,
                  std::int64_t indexCount, std::int64_t axisDim, std::int64_t inner, int elementSize, cudaStream_t s);

// out[i] = x at i's coordinates with the axis coordinate replaced by indices[i] (GatherElements; indices has the
// output's shape). Out-of-range indices give zeros: a running graph cannot fail, and the CPU backend rejects them.
struct GatherElementsArgs {
    int rank = 0, axis = 0;
    std::int64_t dims[kMaxRank] = {};     // the output's (= the indices') shape
    std::int64_t xStrides[kMaxRank] = {}; // element strides of x
    std::int64_t axisDim = 0, count = 0;
    bool indices64 = true;
    int elementSize = 4;
};
void launchGatherElements(const void* x, const void* indices, void* out, const GatherElementsArgs& a, cudaStream_t s);

// GatherND: output tuple t (of `perBatch` per batch) copies the slice of `slice` elements of x that its k index
// coordinates name, after `batch` leading dims shared by x and the indices. Out-of-range coordinates give zeros
// (the CPU backend rejects them).
struct GatherNDArgs {
    int k = 0;
    std::int64_t dims[kMaxRank] = {};    // x's extents of the k indexed dims
    std::int64_t strides[kMaxRank] = {}; // their element strides in x
    std::int64_t batchStride = 0, perBatch = 0, slice = 0, count = 0;
    bool indices64 = true;
    int elementSize = 4;
};
void launchGatherND(const void* x, const void* indices, void* out, const GatherNDArgs& a, cudaStream_t s);

// Pad and Tile: each output coordinate minus padBegin maps into x; outside x, Constant gives the fill value,
// Edge clamps, Reflect mirrors (without repeating the edge) and Wrap takes the coordinate modulo x's extent
// (Tile is a Wrap pad with no leading pad).
enum class PadMode : int { Constant, Edge, Reflect, Wrap };
struct PadArgs {
    PadMode mode = PadMode::Constant;
    int rank = 0;
    std::int64_t outDims[kMaxRank] = {}, inDims[kMaxRank] = {}, inStrides[kMaxRank] = {}, padBegin[kMaxRank] = {};
    std::int64_t count = 0;
    int elementSize = 4;
    std::uint64_t fill = 0;        // the constant's low elementSize bytes
    const void* fillPtr = nullptr; // or one element on the device (the value given as a graph tensor)
};
void launchPad(const void* x, void* out, const PadArgs& a, cudaStream_t s);

constexpr int kMaxSpatial = 3;
struct ConvArgs {
    const float *x = nullptr, *w = nullptr, *bias = nullptr;
    float* y = nullptr;
    std::int64_t batch = 0, inChannels = 0, outChannels = 0, groups = 1;
    std::int64_t in[kMaxSpatial] = {1, 1, 1}, kernel[kMaxSpatial] = {1, 1, 1}, out[kMaxSpatial] = {1, 1, 1};
    std::int64_t stride[kMaxSpatial] = {1, 1, 1}, dilation[kMaxSpatial] = {1, 1, 1}, pad[kMaxSpatial] = {};
};
// Direct convolution, one thread per output element (ConvArgs::y); for convolutions whose im2col buffer would
// be too large even for a single sample.
void launchConv(const ConvArgs& a, cudaStream_t s);
// im2col for the cuBLAS path: col[n][c][tap][o] = x at output position o shifted by kernel tap (0 in the padding).
void launchIm2col(const ConvArgs& a, float* col, cudaStream_t s);
// ConvTranspose, one thread per output element: ConvArgs::x is the input [N, inChannels, in...], w is
// [inChannels, outChannels / groups, kernel...], y is [N, outChannels, out...]; pad holds the leading pads. Output
// position o takes input position (o + pad - k * dilation) / stride wherever that divides exactly and lies inside.
void launchConvTranspose(const ConvArgs& a, cudaStream_t s);
// y[(n * c + k) * inner + i] += bias[k].
void launchChannelBias(float* y, const float* bias, std::int64_t n, std::int64_t c, std::int64_t inner,
                       cudaStream_t s);

struct PoolArgs {
    const float* x = nullptr;
    float* y = nullptr;
    std::int64_t planes = 0; // N * C
    std::int64_t in[kMaxSpatial] = {1, 1, 1}, kernel[kMaxSpatial] = {1, 1, 1}, out[kMaxSpatial] = {1, 1, 1};
    std::int64_t stride[kMaxSpatial] = {1, 1, 1}, dilation[kMaxSpatial] = {1, 1, 1};
    std::int64_t padBegin[kMaxSpatial] = {}, padEnd[kMaxSpatial] = {};
    bool isMax = true, includePad = false;
};
void launchPool(const PoolArgs& a, cudaStream_t s);

// Complex rows: planar F32 [.., 2n] (n reals then n imaginaries) or interleaved C64 [.., n].
void launchComplexToInterleaved(const float* src, bool planar, float* dst, std::int64_t rows, std::int64_t n,
                                cudaStream_t s);
void launchInterleavedToComplex(const float* src, float* dst, bool planar, std::int64_t rows, std::int64_t n,
                                float scale, cudaStream_t s);
// WelchPeaks: mean power over segments, top-k one-sided bins per batch item -> [batch, 2k].
void launchWelchPeaks(const float* src, bool planar, float* out, std::int64_t batch, std::int64_t segments,
                      std::int64_t n, std::int64_t k, cudaStream_t s);

// Fills count elements of elementSize (1, 2, 4 or 8) bytes with the pattern's low bytes.
void launchFill(void* dst, std::int64_t count, int elementSize, std::uint64_t pattern, cudaStream_t s);
// Element-wise conversion between F32, F64, F16, BF16, F8E4M3, F8E5M2, I8, U8/Bool, I32 and I64 (codes of CastType);
// floats truncate to integers, non-zero becomes 1 in Bool, the narrow floats round to nearest even (through F32, as
// the CPU backend does).
enum class CastType : int { F32, F64, I8, U8, Bool, I32, I64, F16, BF16, F8E4M3, F8E5M2 };
// `saturate`: an fp8 result beyond the type's range becomes its largest finite value, else infinity (E5M2) or NaN
// (E4M3, which has no infinity).
void launchCast(const void* src, CastType from, void* dst, CastType to, std::int64_t count, bool saturate,
                cudaStream_t s);
// Inference batch norm over [N, C, inner]: y = (x - mean) * scale / sqrt(var + eps) + bias per channel.
void launchBatchNorm(const float* x, float* y, std::int64_t n, std::int64_t c, std::int64_t inner, const float* scale,
                     const float* bias, const float* mean, const float* var, float eps, cudaStream_t s);
// Cross-channel LRN over [N, C, inner] (ONNX semantics: window of `size` channels around each one).
void launchLrn(const float* x, float* y, std::int64_t n, std::int64_t c, std::int64_t inner, int size, float alpha,
               float beta, float bias, cudaStream_t s);

// An empty kernel, for the launch-overhead calibration.
void launchEmpty(cudaStream_t s);

} // namespace costscope::cuda
