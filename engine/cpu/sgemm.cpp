// SPDX-License-Identifier: MIT
// Packed, cache-blocked sgemm (the BLIS loop nest) around a 6x16 register tile, with AVX2/FMA kernels chosen at run
// time and portable ones elsewhere.
//
// Every element of C is one chain of multiply-adds over k in ascending order (fused where the CPU has FMA), so equal
// inputs give bit-identical outputs wherever they sit in the tiling and whatever the thread count. Vendor BLAS makes
// no such promise: OpenBLAS 0.3.21's Haswell/Zen kernel sums rows 6-11 of each 12-row group in another order than
// rows 0-5, and its thread split moves that pattern, which a softmax over logits near 1e10 (1 ulp = 1024) turns
// into a different answer.
#include "cpu/sgemm.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define COSTSCOPE_SGEMM_X86 1
#endif

namespace costscope::cpu {

namespace {
constexpr std::int64_t kMr = 6;    // rows of the register tile
constexpr std::int64_t kNr = 16;   // columns of the register tile: two 8-float vectors
constexpr std::int64_t kKc = 256;  // depth of a packed block: a kKc x kNr sliver of B stays in L1
constexpr std::int64_t kMc = 144;  // most rows of a packed block of A (kMc x kKc stays in L2)
constexpr std::int64_t kNc = 3072; // most columns of a packed panel of B (kKc x kNc stays in L3)
constexpr double kInlineFlops = 1 << 18; // below this a product runs on the calling thread alone

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

struct Matrix {
    const float* data;
    std::int64_t ld;
    bool transposed;
};

// Grow-only, 64-byte aligned scratch: packed rows of B then start on cache lines.
class Scratch {
public:
    float* get(std::int64_t floats)
    {
        const auto n = static_cast<std::size_t>(floats);
        if (n > m_size) {
            m_data.reset(static_cast<float*>(::operator new[](n * sizeof(float), std::align_val_t{64})));
            m_size = n;
        }
        return m_data.get();
    }

private:
    struct Free {
        void operator()(float* p) const { ::operator delete[](p, std::align_val_t{64}); }
    };
    std::unique_ptr<float[], Free> m_data;
    std::size_t m_size = 0;
};

// The first Rows rows of a tile: c[r][j] (+)= sum over p of a[p * kMr + r] * b[p * kNr + j], one multiply-add after
// another in p order. Instantiated for every row count, so that the last rows of C need no scratch tile.
using TileKernel = void (*)(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                            bool accumulate);
using TileKernels = std::array<TileKernel, kMr + 1>; // by row count; [0] unused

template <int Rows>
void tilePortable(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, bool accumulate)
{
    float acc[Rows][kNr];
    for (int r = 0; r < Rows; ++r)
        for (std::int64_t j = 0; j < kNr; ++j)
            acc[r][j] = accumulate ? c[r * ldc + j] : 0.0f;
    for (std::int64_t p = 0; p < kc; ++p, a += kMr, b += kNr)
        for (int r = 0; r < Rows; ++r)
            for (std::int64_t j = 0; j < kNr; ++j)
                acc[r][j] += a[r] * b[j];
    for (int r = 0; r < Rows; ++r)
        for (std::int64_t j = 0; j < kNr; ++j)
            c[r * ldc + j] = acc[r][j];
}

#ifdef COSTSCOPE_SGEMM_X86
template <int Rows>
__attribute__((target("avx2,fma"))) void tileAvx2(std::int64_t kc, const float* a, const float* b, float* c,
                                                  std::int64_t ldc, bool accumulate)
{
    __m256 acc[Rows][2];
#pragma GCC unroll 6
    for (int r = 0; r < Rows; ++r) {
        acc[r][0] = accumulate ? _mm256_loadu_ps(c + r * ldc) : _mm256_setzero_ps();
        acc[r][1] = accumulate ? _mm256_loadu_ps(c + r * ldc + 8) : _mm256_setzero_ps();
    }
#pragma GCC unroll 4
    for (std::int64_t p = 0; p < kc; ++p, a += kMr, b += kNr) {
        const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
        for (int r = 0; r < Rows; ++r) {
            const __m256 av = _mm256_broadcast_ss(a + r);
            acc[r][0] = _mm256_fmadd_ps(av, b0, acc[r][0]);
            acc[r][1] = _mm256_fmadd_ps(av, b1, acc[r][1]);
        }
    }
#pragma GCC unroll 6
    for (int r = 0; r < Rows; ++r) {
        _mm256_storeu_ps(c + r * ldc, acc[r][0]);
        _mm256_storeu_ps(c + r * ldc + 8, acc[r][1]);
    }
}

__attribute__((target("avx2"))) inline void transpose8x8(__m256 r[8])
{
    __m256 t[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        t[i] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x20);
        t[i + 4] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x31);
    }
    for (int i = 0; i < 8; ++i)
        r[i] = t[i];
}

// A full sliver of A stored by rows: kMr rows of kc floats (row stride ld) into alpha * [p][r].
__attribute__((target("avx2"))) void packRowsAvx2(const float* src, std::int64_t ld, std::int64_t kc, float alpha,
                                                  float* dst)
{
    const __m256 scale = _mm256_set1_ps(alpha);
    const __m256i firstRows = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0);
    std::int64_t p = 0;
    for (; p + 8 <= kc; p += 8) {
        __m256 r[8];
        for (int i = 0; i < 8; ++i)
            r[i] = i < kMr ? _mm256_mul_ps(scale, _mm256_loadu_ps(src + i * ld + p)) : _mm256_setzero_ps();
        transpose8x8(r);
        for (int i = 0; i < 8; ++i)
            _mm256_maskstore_ps(dst + (p + i) * kMr, firstRows, r[i]);
    }
    for (; p < kc; ++p)
        for (std::int64_t i = 0; i < kMr; ++i)
            dst[p * kMr + i] = alpha * src[i * ld + p];
}

// A full sliver of a transposed B: kNr rows of kc floats (row stride ld) into [p][j].
__attribute__((target("avx2"))) void packTransposedAvx2(const float* src, std::int64_t ld, std::int64_t kc,
                                                        float* dst)
{
    std::int64_t p = 0;
    for (; p + 8 <= kc; p += 8)
        for (std::int64_t h = 0; h < kNr; h += 8) {
            __m256 r[8];
            for (int i = 0; i < 8; ++i)
                r[i] = _mm256_loadu_ps(src + (h + i) * ld + p);
            transpose8x8(r);
            for (int i = 0; i < 8; ++i)
                _mm256_storeu_ps(dst + (p + i) * kNr + h, r[i]);
        }
    for (; p < kc; ++p)
        for (std::int64_t j = 0; j < kNr; ++j)
            dst[p * kNr + j] = src[j * ld + p];
}
#endif

bool hasAvx2Fma()
{
#ifdef COSTSCOPE_SGEMM_X86
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return avx2;
#else
    return false;
#endif
}

const TileKernels& tileKernels()
{
    static const TileKernels portable{nullptr,         tilePortable<1>, tilePortable<2>, tilePortable<3>,
                                      tilePortable<4>, tilePortable<5>, tilePortable<6>};
#ifdef COSTSCOPE_SGEMM_X86
    static const TileKernels avx2{nullptr, tileAvx2<1>, tileAvx2<2>, tileAvx2<3>, tileAvx2<4>, tileAvx2<5>, tileAvx2<6>};
    if (hasAvx2Fma())
        return avx2;
#endif
    return portable;
}

// alpha * op(A)[i0 .. i0 + rows, p0 .. p0 + kc] as kMr-row slivers, [p][r] inside each, zero rows past the end.
void packA(const Matrix& a, float alpha, std::int64_t i0, std::int64_t rows, std::int64_t p0, std::int64_t kc,
           float* dst)
{
    for (std::int64_t s = 0; s < rows; s += kMr, dst += kMr * kc) {
        const std::int64_t live = std::min(kMr, rows - s);
        // Element (r, p) of the sliver sits at src[r * rowStep + p * depthStep].
        const float* src = a.transposed ? a.data + p0 * a.ld + i0 + s : a.data + (i0 + s) * a.ld + p0;
        const std::int64_t rowStep = a.transposed ? 1 : a.ld, depthStep = a.transposed ? a.ld : 1;
#ifdef COSTSCOPE_SGEMM_X86
        if (!a.transposed && live == kMr && hasAvx2Fma()) {
            packRowsAvx2(src, a.ld, kc, alpha, dst);
            continue;
        }
#endif
        for (std::int64_t p = 0; p < kc; ++p)
            for (std::int64_t r = 0; r < kMr; ++r)
                dst[p * kMr + r] = r < live ? alpha * src[r * rowStep + p * depthStep] : 0.0f;
    }
}

// One kNr-column sliver of op(B)[p0 .. p0 + kc, j0 .. j0 + cols], [p][j], zero columns past the end.
void packB(const Matrix& b, std::int64_t p0, std::int64_t kc, std::int64_t j0, std::int64_t cols, float* dst)
{
    if (b.transposed) {
        const float* src = b.data + j0 * b.ld + p0;
#ifdef COSTSCOPE_SGEMM_X86
        if (cols == kNr && hasAvx2Fma()) {
            packTransposedAvx2(src, b.ld, kc, dst);
            return;
        }
#endif
        for (std::int64_t p = 0; p < kc; ++p)
            for (std::int64_t j = 0; j < kNr; ++j)
                dst[p * kNr + j] = j < cols ? src[j * b.ld + p] : 0.0f;
        return;
    }
    for (std::int64_t p = 0; p < kc; ++p) {
        const float* src = b.data + (p0 + p) * b.ld + j0;
        if (cols == kNr)
            std::memcpy(dst + p * kNr, src, sizeof(float) * kNr);
        else
            for (std::int64_t j = 0; j < kNr; ++j)
                dst[p * kNr + j] = j < cols ? src[j] : 0.0f;
    }
}

// The kc x nc panel of op(B) at (p0, j0) as kNr-column slivers. A row-major B is read row by row: sliver by sliver
// would touch kc rows (a page apart when B is a convolution's column matrix of 50 000 columns) for each 64-byte piece,
// which the hardware prefetchers cannot follow; packing 115 MB that way ran at a third of the copy bandwidth.
void packPanelB(const Matrix& b, std::int64_t p0, std::int64_t kc, std::int64_t j0, std::int64_t nc, float* dst)
{
    if (b.transposed) {
        for (std::int64_t s = 0; s < nc; s += kNr)
            packB(b, p0, kc, j0 + s, std::min(kNr, nc - s), dst + s * kc);
        return;
    }
    const std::int64_t full = nc / kNr * kNr;
    for (std::int64_t p = 0; p < kc; ++p) {
        const float* src = b.data + (p0 + p) * b.ld + j0;
        float* row = dst + p * kNr;
        for (std::int64_t s = 0; s < full; s += kNr)
            std::memcpy(row + s * kc, src + s, sizeof(float) * kNr);
        if (full < nc)
            for (std::int64_t j = 0; j < kNr; ++j)
                row[full * kc + j] = full + j < nc ? src[full + j] : 0.0f;
    }
}

void scaleRows(std::int64_t r0, std::int64_t r1, std::int64_t n, float beta, float* c, std::int64_t ldc)
{
    for (std::int64_t i = r0; i < r1; ++i)
        for (std::int64_t j = 0; j < n; ++j)
            c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
}

void scaleC(ThreadPool& pool, std::int64_t m, std::int64_t n, float beta, float* c, std::int64_t ldc)
{
    pool.parallelFor(m, 16, [&](std::int64_t r0, std::int64_t r1) { scaleRows(r0, r1, n, beta, c, ldc); });
}

// One tile of C: rows x cols at c, through a scratch tile where the columns fall short of kNr.
void runTile(const TileKernels& tiles, std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
             std::int64_t rows, std::int64_t cols, bool accumulate)
{
    const TileKernel tile = tiles[static_cast<std::size_t>(rows)];
    if (cols == kNr) {
        tile(kc, a, b, c, ldc, accumulate);
        return;
    }
    float edge[kMr * kNr] = {};
    for (std::int64_t i = 0; accumulate && i < rows; ++i)
        std::copy(c + i * ldc, c + i * ldc + cols, edge + i * kNr);
    tile(kc, a, b, edge, kNr, accumulate);
    for (std::int64_t i = 0; i < rows; ++i)
        std::copy(edge + i * kNr, edge + i * kNr + cols, c + i * ldc);
}

struct Product {
    Matrix a, b;
    float alpha;
    bool accumulate; // C holds beta * C already
    float* c;
    std::int64_t ldc, k;
};

// C[i0 .. i1, j0 .. j1] on the calling thread: the BLIS loops over column panels, depth blocks and row blocks,
// each operand packed into this thread's scratch.
void multiplyBlock(const Product& g, std::int64_t i0, std::int64_t i1, std::int64_t j0, std::int64_t j1)
{
    static thread_local Scratch packedA, packedB;
    const TileKernels& tiles = tileKernels();
    const std::int64_t m = i1 - i0;
    // Row blocks of near-equal height in whole slivers.
    const std::int64_t mc = std::min(kMc, ceilDiv(ceilDiv(m, ceilDiv(m, kMc)), kMr) * kMr);
    float* ap = packedA.get(kMc * kKc);
    for (std::int64_t jc = j0; jc < j1; jc += kNc) {
        const std::int64_t nc = std::min(kNc, j1 - jc);
        float* bp = packedB.get(ceilDiv(nc, kNr) * kNr * kKc);
        for (std::int64_t pc = 0; pc < g.k; pc += kKc) {
            const std::int64_t kc = std::min(kKc, g.k - pc);
            const bool accumulate = pc > 0 || g.accumulate;
            packPanelB(g.b, pc, kc, jc, nc, bp);
            for (std::int64_t ic = i0; ic < i1; ic += mc) {
                const std::int64_t rows = std::min(mc, i1 - ic);
                packA(g.a, g.alpha, ic, rows, pc, kc, ap);
                for (std::int64_t s = 0; s < nc; s += kNr)
                    for (std::int64_t r = 0; r < rows; r += kMr) {
                        float* cs = g.c + (ic + r) * g.ldc + jc + s;
                        for (std::int64_t i = kMr; i < 2 * kMr && r + i < rows; ++i) {
                            __builtin_prefetch(cs + i * g.ldc, 1);
                            __builtin_prefetch(cs + i * g.ldc + kNr - 1, 1);
                        }
                        runTile(tiles, kc, ap + r * kc, bp + s * kc, cs, g.ldc, std::min(kMr, rows - r),
                                std::min(kNr, nc - s), accumulate);
                    }
            }
        }
    }
}

// How the threads split C: a grid of row bands x column bands (whole slivers), chosen to minimise one thread's
// share of the multiply-adds plus the packing that every band repeats.
struct Grid {
    std::int64_t rowBands = 1, colBands = 1;
};

Grid chooseGrid(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t threads)
{
    constexpr double kPackWeight = 16; // packing one element costs about as much as this many multiply-adds
    Grid best;
    if (2.0 * double(m) * double(n) * double(k) < kInlineFlops)
        return best;
    const std::int64_t rowSlivers = ceilDiv(m, kMr), colSlivers = ceilDiv(n, kNr);
    double bestCost = -1;
    for (std::int64_t rb = 1; rb <= std::min(threads, rowSlivers); ++rb) {
        const std::int64_t cb = std::min(threads / rb, colSlivers);
        const double rows = double(ceilDiv(rowSlivers, rb) * kMr), cols = double(ceilDiv(colSlivers, cb) * kNr);
        const double cost = rows * cols + kPackWeight * (rows + cols);
        if (bestCost < 0 || cost < bestCost) {
            bestCost = cost;
            best = {rb, cb};
        }
    }
    return best;
}
} // namespace

void sgemm(ThreadPool& pool, bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
           const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0 || alpha == 0.0f) {
        if (beta != 1.0f)
            scaleC(pool, m, n, beta, c, ldc);
        return;
    }
    if (beta != 0.0f && beta != 1.0f)
        scaleC(pool, m, n, beta, c, ldc);
    const Product g{{a, lda, transA}, {b, ldb, transB}, alpha, beta != 0.0f, c, ldc, k};
    const Grid grid = chooseGrid(m, n, k, static_cast<std::int64_t>(pool.size()));
    const std::int64_t rowSlivers = ceilDiv(m, kMr), colSlivers = ceilDiv(n, kNr);
    pool.parallelFor(grid.rowBands * grid.colBands, 1, [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            const std::int64_t rb = t / grid.colBands, cb = t % grid.colBands;
            const std::int64_t i0 = rowSlivers * rb / grid.rowBands * kMr;
            const std::int64_t i1 = std::min(m, rowSlivers * (rb + 1) / grid.rowBands * kMr);
            const std::int64_t j0 = colSlivers * cb / grid.colBands * kNr;
            const std::int64_t j1 = std::min(n, colSlivers * (cb + 1) / grid.colBands * kNr);
            multiplyBlock(g, i0, i1, j0, j1);
        }
    });
}

void sgemmSerial(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* a,
                 std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    if (beta != 1.0f && (k <= 0 || alpha == 0.0f || beta != 0.0f))
        scaleRows(0, m, n, beta, c, ldc);
    if (k <= 0 || alpha == 0.0f)
        return;
    multiplyBlock({{a, lda, transA}, {b, ldb, transB}, alpha, beta != 0.0f, c, ldc, k}, 0, m, 0, n);
}

const char* sgemmImplementation()
{
    if (hasAvx2Fma())
        return "built-in packed 6x16, AVX2/FMA";
    return "built-in packed 6x16, portable";
}

} // namespace costscope::cpu
