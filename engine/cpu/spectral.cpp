// SPDX-License-Identifier: MIT
// Fft, WelchPeaks and LogMel.
// Complex layout: an F32 tensor [..., 2n] holds n complex values planar (n real parts, then n imaginary parts),
// as RLX builds them (Concat([signal, zeros], last axis) feeds an Fft); a C64 tensor [..., n] is interleaved.
#include "cpu/kernel.h"
#include "mel_filterbank.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <mutex>
#include <numbers>
#include <numeric>

#ifdef COSTSCOPE_HAVE_FFTW
#include <fftw3.h>
#endif

namespace costscope::cpu {

namespace {
using Complex = std::complex<float>;

// Transforms `rows` contiguous signals of n points in place (unnormalised, sign -1 forward, +1 inverse).
void transformRows(std::vector<Complex>& data, std::int64_t rows, std::int64_t n, bool inverse)
{
    if (rows == 0 || n == 0)
        return;
#ifdef COSTSCOPE_HAVE_FFTW
    // FFTW's planner is not thread-safe; plans from different threads must be made one at a time.
    static std::mutex plannerMutex;
    fftwf_plan plan;
    {
        std::lock_guard lock(plannerMutex);
        const int len = static_cast<int>(n);
        auto* p = reinterpret_cast<fftwf_complex*>(data.data());
        plan = fftwf_plan_many_dft(1, &len, static_cast<int>(rows), p, nullptr, 1, len, p, nullptr, 1, len,
                                   inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_ESTIMATE);
    }
    fftwf_execute(plan);
    std::lock_guard lock(plannerMutex);
    fftwf_destroy_plan(plan);
#else
    // Without FFTW: a direct O(n^2) DFT, correct but slow; the build summary says FFTW is missing.
    std::vector<Complex> row(static_cast<std::size_t>(n));
    const double sign = inverse ? 1.0 : -1.0;
    for (std::int64_t r = 0; r < rows; ++r) {
        Complex* x = data.data() + r * n;
        for (std::int64_t f = 0; f < n; ++f) {
            std::complex<double> acc = 0;
            for (std::int64_t t = 0; t < n; ++t) {
                const double angle = sign * 2.0 * std::numbers::pi * double(f * t % n) / double(n);
                acc += std::complex<double>(x[t]) * std::polar(1.0, angle);
            }
            row[static_cast<std::size_t>(f)] = Complex(acc);
        }
        std::copy(row.begin(), row.end(), x);
    }
#endif
}

// Reads rows of complex values from either layout.
std::vector<Complex> complexRows(const HostTensor& x, std::int64_t& rows, std::int64_t& n)
{
    const bool planar = x.dtype() == DType::F32;
    n = x.rank() ? x.dims().back() / (planar ? 2 : 1) : 0;
    rows = n ? static_cast<std::int64_t>(x.elements()) / (planar ? 2 * n : n) : 0;
    std::vector<Complex> data(static_cast<std::size_t>(rows * n));
    const float* src = reinterpret_cast<const float*>(x.bytes());
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t re = planar ? r * 2 * n + i : 2 * (r * n + i);
            const std::int64_t im = planar ? re + n : re + 1;
            data[static_cast<std::size_t>(r * n + i)] = Complex(src[re], src[im]);
        }
    return data;
}
} // namespace

KernelStatus runFft(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const bool planar = x.dtype() == DType::F32;
    if ((!planar && x.dtype() != DType::C64) || x.rank() == 0 || (planar && x.dims().back() % 2))
        return fail("Fft needs F32 [..., 2n] (planar complex) or C64 [..., n], got " + describe(x));
    const bool inverse = ctx.attrs().getBool("inverse").value_or(false);
    std::int64_t rows = 0, n = 0;
    std::vector<Complex> data = complexRows(x, rows, n);
    transformRows(data, rows, n, inverse);
    const Result<double> scaleOr = fftScale(ctx.attrs(), inverse, n);
    if (!scaleOr)
        return scaleOr.error();
    const double scale = *scaleOr;
    out.reset(x.dims(), x.dtype());
    float* dst = reinterpret_cast<float*>(out.bytes());
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t i = 0; i < n; ++i) {
            const Complex c = data[static_cast<std::size_t>(r * n + i)] * static_cast<float>(scale);
            dst[planar ? r * 2 * n + i : 2 * (r * n + i)] = c.real();
            dst[planar ? r * 2 * n + n + i : 2 * (r * n + i) + 1] = c.imag();
        }
    return ok();
}

// WelchPeaks{k, n_segments}: input = spectra of batch x n_segments segments (rows of n complex bins); the power
// |X|^2 is averaged over each batch item's segments, and the k strongest one-sided bins (0..n/2) are returned
// strongest first as [batch, 2k]: k bin indices (as floats), then their k mean powers.
KernelStatus runWelchPeaks(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if ((x.dtype() != DType::F32 && x.dtype() != DType::C64) || x.rank() == 0)
        return fail("WelchPeaks needs a complex spectrum (F32 planar or C64), got " + describe(x));
    const std::int64_t k = ctx.attrs().intOr("k", 16), segs = ctx.attrs().intOr("n_segments", 1);
    std::int64_t rows = 0, n = 0;
    const std::vector<Complex> data = complexRows(x, rows, n);
    if (k < 1 || segs < 1 || rows % segs)
        return fail("WelchPeaks: " + std::to_string(rows) + " spectra do not split into segments of "
                    + std::to_string(segs) + " (k " + std::to_string(k) + ")");
    const std::int64_t batch = rows / segs, bins = n / 2 + 1;
    out.reset({batch, 2 * k}, DType::F32);
    float* dst = out.values<float>().data();
    ctx.pool.parallelFor(batch, 1, [&](std::int64_t b0, std::int64_t b1) {
        std::vector<double> power(static_cast<std::size_t>(bins));
        std::vector<std::int64_t> order(static_cast<std::size_t>(bins));
        for (std::int64_t b = b0; b < b1; ++b) {
            std::fill(power.begin(), power.end(), 0.0);
            for (std::int64_t s = 0; s < segs; ++s)
                for (std::int64_t i = 0; i < bins && i < n; ++i)
                    power[static_cast<std::size_t>(i)] +=
                        std::norm(data[static_cast<std::size_t>((b * segs + s) * n + i)]) / double(segs);
            std::iota(order.begin(), order.end(), 0);
            const auto top = static_cast<std::ptrdiff_t>(std::min(k, bins));
            std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](std::int64_t l, std::int64_t r) {
                const double pl = power[static_cast<std::size_t>(l)], pr = power[static_cast<std::size_t>(r)];
                return pl != pr ? pl > pr : l < r;
            });
            for (std::int64_t j = 0; j < k; ++j) {
                const bool have = j < top;
                const std::int64_t bin = have ? order[static_cast<std::size_t>(j)] : 0;
                dst[b * 2 * k + j] = have ? static_cast<float>(bin) : 0.0f;
                dst[b * 2 * k + k + j] = have ? static_cast<float>(power[static_cast<std::size_t>(bin)]) : 0.0f;
            }
        }
    });
    return ok();
}

// LogMel: input 0 is a power spectrum [..., F]; input 1 (optional) a mel filterbank [M, F], else an HTK bank
// with M = the node's stated last dim. Output [..., M] = ln(max(bank . power, 1e-10)).
KernelStatus runLogMel(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (x.dtype() != DType::F32 || x.rank() == 0)
        return fail("LogMel needs an F32 power spectrum [..., bins], got " + describe(x));
    const std::int64_t bins = x.dims().back();
    std::vector<float> bank;
    std::int64_t mels = 0;
    if (in.size() > 1) {
        const HostTensor& fb = *in[1];
        if (fb.dtype() != DType::F32 || fb.rank() != 2 || fb.dim(1) != bins)
            return fail("LogMel: filterbank " + describe(fb) + " must be F32 [mels, " + std::to_string(bins) + "]");
        mels = fb.dim(0);
        bank.assign(fb.values<float>().begin(), fb.values<float>().end());
    } else {
        auto stated = statedDims(ctx);
        if (!stated || stated->empty())
            return fail("LogMel: without a filterbank input the node's shape must give the mel count");
        mels = stated->back();
        bank = melFilterbank(mels, bins);
    }
    Dims dims = x.dims();
    dims.back() = mels;
    out.reset(dims, DType::F32);
    const float* src = x.values<float>().data();
    float* dst = out.values<float>().data();
    const std::int64_t rows = bins ? static_cast<std::int64_t>(x.elements()) / bins : 0;
    ctx.pool.parallelFor(rows, 4, [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r)
            for (std::int64_t m = 0; m < mels; ++m) {
                double acc = 0;
                for (std::int64_t b = 0; b < bins; ++b)
                    acc += double(bank[static_cast<std::size_t>(m * bins + b)]) * src[r * bins + b];
                dst[r * mels + m] = static_cast<float>(std::log(std::max(acc, 1e-10)));
            }
    });
    return ok();
}

} // namespace costscope::cpu
