// SPDX-License-Identifier: MIT
// Conv (im2col + cuBLAS), ConvTranspose (direct) and Pool with the CPU backend's geometry, Fft through cuFFT, and WelchPeaks.
#include "cuda/cuda_gemm.h"

#include <algorithm>
#include <cmath>

namespace costscope::cuda {

namespace {
// Spatial dims are right-aligned into the kernels' three slots (1-D and 2-D lead with extent-1 dims).
void place(const Dims& from, std::int64_t (&to)[kMaxSpatial])
{
    const std::size_t shift = kMaxSpatial - from.size();
    for (std::size_t i = 0; i < from.size(); ++i)
        to[shift + i] = from[i];
}

} // namespace

LowerResult lowerConv(LowerContext& c)
{
    const DeviceValue &x = *c.in[0], &w = *c.in[1];
    if (x.dims.size() < 3 || x.dims.size() > 5 || w.dims.size() != x.dims.size() || x.dtype != DType::F32
        || w.dtype != DType::F32)
        return lowerError("Conv needs F32 input [N, C, spatial (1-3 dims)] and weight of the same rank, got "
                          + valueString(x) + " and " + valueString(w));
    const std::size_t sp = x.dims.size() - 2;
    const Attrs& at = c.attrs();
    ConvArgs a;
    a.batch = x.dims[0];
    a.inChannels = x.dims[1];
    a.outChannels = w.dims[0];
    a.groups = at.intOr("groups", 1);
    if (a.groups < 1 || a.inChannels % a.groups || a.outChannels % a.groups || w.dims[1] != a.inChannels / a.groups)
        return lowerError("Conv: input " + valueString(x) + " does not fit weight " + valueString(w) + " with groups "
                          + std::to_string(a.groups));
    const Dims stride = spatialAttr(at, "stride", sp, 1), dil = spatialAttr(at, "dilation", sp, 1);
    const Dims padB = spatialAttr(at, "padding", sp, 0);
    const Dims padE = at.has("padding_end") ? spatialAttr(at, "padding_end", sp, 0) : padB;
    Dims in(x.dims.begin() + 2, x.dims.end()), kernel(w.dims.begin() + 2, w.dims.end()), out;
    for (std::size_t i = 0; i < sp; ++i) {
        if (stride[i] < 1 || dil[i] < 1)
            return lowerError("Conv: stride and dilation must be positive");
        const std::int64_t span = dil[i] * (kernel[i] - 1) + 1;
        if (in[i] + padB[i] + padE[i] < span)
            return lowerError("Conv: kernel " + dimsString(kernel) + " larger than padded input " + valueString(x));
        out.push_back((in[i] + padB[i] + padE[i] - span) / stride[i] + 1);
    }
    Dims dims{a.batch, a.outChannels};
    dims.insert(dims.end(), out.begin(), out.end());
    if (dims != c.out.dims)
        return lowerError("Conv: the result is " + dimsString(dims) + ", the node states " + valueString(c.out));
    if (c.in.size() > 2) {
        if (c.in[2]->dtype != DType::F32 || static_cast<std::int64_t>(c.in[2]->elements()) != a.outChannels)
            return lowerError("Conv: bias " + valueString(*c.in[2]) + " must hold " + std::to_string(a.outChannels)
                              + " F32 values");
        a.bias = static_cast<const float*>(c.in[2]->ptr);
    }
    place(in, a.in);
    place(kernel, a.kernel);
    place(out, a.out);
    place(stride, a.stride);
    place(dil, a.dilation);
    place(padB, a.pad);
    a.x = static_cast<const float*>(x.ptr);
    a.w = static_cast<const float*>(w.ptr);
    a.y = static_cast<float*>(c.out.ptr);
    const std::int64_t taps = product(kernel), outSpatial = product(out);
    const std::int64_t cg = a.inChannels / a.groups, kg = a.outChannels / a.groups;
    const std::int64_t sampleColFloats = a.inChannels * taps * outSpatial, inSpatial = product(in);
    // The column buffer holds as many samples as fit in this many bytes; a larger batch runs in chunks of that
    // many samples (im2col + cuBLAS per chunk). Only a single sample over the limit takes the direct kernel.
    constexpr std::int64_t kMaxColumnBytes = std::int64_t(4) << 30;
    const std::int64_t chunk = std::min(a.batch, kMaxColumnBytes / std::max<std::int64_t>(sampleColFloats * 4, 1));
    // Depthwise and near-depthwise layers (a few input channels a group) take the direct kernel: each output is a
    // handful of taps, and im2col + a product per group moved 9x the input through memory for it.
    constexpr std::int64_t kDirectMaxChannelsPerGroup = 4;
    if (chunk < 1 || cg * taps > 0x7fffffff || outSpatial > 0x7fffffff
        || (a.groups > 1 && cg <= kDirectMaxChannelsPerGroup))
        return Launch([=](cudaStream_t s) { launchConv(a, s); });
    auto col = c.workspace(static_cast<std::size_t>(chunk * sampleColFloats) * 4);
    if (!col)
        return col.error();
    // Per group: Y[n, g] (kg x out) = W[g] (kg x cg*taps) . col[n, g] (cg*taps x out), batched over n.
    GemmCall g;
    g.handle = c.plan.cublas();
    g.compute = computeType(c.plan.options().precision);
    g.m = int(kg);
    g.n = int(outSpatial);
    g.k = int(cg * taps);
    g.lda = g.k;
    g.ldb = g.n;
    g.strideA = 0;
    g.strideB = sampleColFloats;
    g.strideC = a.outChannels * outSpatial;
    auto* colBuf = static_cast<float*>(*col);
    const std::int64_t groups = a.groups;
    // The same products batched over the groups of one sample: strided-batched cuBLAS over whichever of samples and
    // groups is larger, so that a depthwise layer (groups = channels, 544 in ShuffleNet) is one launch per sample
    // instead of one per group (0.96 ms a node against a predicted 1.9 us).
    GemmCall byGroup = g;
    byGroup.strideA = kg * cg * taps;
    byGroup.strideB = cg * taps * outSpatial;
    byGroup.strideC = kg * outSpatial;
    byGroup.batch = int(groups);
    return Launch([=](cudaStream_t s) {
        for (std::int64_t n0 = 0; n0 < a.batch; n0 += chunk) {
            ConvArgs piece = a;
            piece.batch = std::min(chunk, a.batch - n0);
            piece.x = a.x + n0 * a.inChannels * inSpatial;
            piece.y = a.y + n0 * a.outChannels * outSpatial;
            launchIm2col(piece, colBuf, s);
            if (groups > piece.batch) {
                for (std::int64_t n = 0; n < piece.batch; ++n)
                    byGroup(s, a.w, colBuf + n * sampleColFloats, piece.y + n * a.outChannels * outSpatial);
                continue;
            }
            GemmCall gp = g;
            gp.batch = int(piece.batch);
            for (std::int64_t gi = 0; gi < groups; ++gi)
                gp(s, a.w + gi * kg * cg * taps, colBuf + gi * cg * taps * outSpatial, piece.y + gi * kg * outSpatial);
        }
        if (a.bias)
            launchChannelBias(a.y, a.bias, a.batch, a.outChannels, outSpatial, s);
    });
}

LowerResult lowerConvTranspose(LowerContext& c)
{
    const DeviceValue &x = *c.in[0], &w = *c.in[1];
    if (x.dims.size() < 3 || x.dims.size() > 5 || w.dims.size() != x.dims.size() || x.dtype != DType::F32
        || w.dtype != DType::F32)
        return lowerError("ConvTranspose needs F32 input [N, C, spatial (1-3 dims)] and weight of the same rank, got "
                          + valueString(x) + " and " + valueString(w));
    const std::size_t sp = x.dims.size() - 2;
    const Attrs& at = c.attrs();
    ConvArgs a;
    a.batch = x.dims[0];
    a.inChannels = x.dims[1];
    a.groups = at.intOr("groups", 1);
    if (a.groups < 1 || a.inChannels % a.groups || w.dims[0] != a.inChannels)
        return lowerError("ConvTranspose: input " + valueString(x) + " does not fit weight " + valueString(w)
                          + " with groups " + std::to_string(a.groups));
    a.outChannels = w.dims[1] * a.groups;
    const Dims stride = spatialAttr(at, "stride", sp, 1), dil = spatialAttr(at, "dilation", sp, 1);
    const Dims padB = spatialAttr(at, "padding", sp, 0), outPad = spatialAttr(at, "output_padding", sp, 0);
    const Dims padE = at.has("padding_end") ? spatialAttr(at, "padding_end", sp, 0) : padB;
    Dims in(x.dims.begin() + 2, x.dims.end()), kernel(w.dims.begin() + 2, w.dims.end()), out;
    for (std::size_t i = 0; i < sp; ++i) {
        if (stride[i] < 1 || dil[i] < 1)
            return lowerError("ConvTranspose: stride and dilation must be positive");
        const std::int64_t o = (in[i] - 1) * stride[i] - padB[i] - padE[i] + dil[i] * (kernel[i] - 1) + 1 + outPad[i];
        if (o < 0)
            return lowerError("ConvTranspose: pads " + dimsString(padB) + " leave no output for " + valueString(x));
        out.push_back(o);
    }
    Dims dims{a.batch, a.outChannels};
    dims.insert(dims.end(), out.begin(), out.end());
    if (dims != c.out.dims)
        return lowerError("ConvTranspose: the result is " + dimsString(dims) + ", the node states "
                          + valueString(c.out));
    if (c.in.size() > 2) {
        if (c.in[2]->dtype != DType::F32 || static_cast<std::int64_t>(c.in[2]->elements()) != a.outChannels)
            return lowerError("ConvTranspose: bias " + valueString(*c.in[2]) + " must hold "
                              + std::to_string(a.outChannels) + " F32 values");
        a.bias = static_cast<const float*>(c.in[2]->ptr);
    }
    place(in, a.in);
    place(kernel, a.kernel);
    place(out, a.out);
    place(stride, a.stride);
    place(dil, a.dilation);
    place(padB, a.pad);
    a.x = static_cast<const float*>(x.ptr);
    a.w = static_cast<const float*>(w.ptr);
    a.y = static_cast<float*>(c.out.ptr);
    return Launch([=](cudaStream_t s) { launchConvTranspose(a, s); });
}

LowerResult lowerPool(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    if (x.dims.size() < 3 || x.dims.size() > 5 || x.dtype != DType::F32)
        return lowerError("Pool needs an F32 input [N, C, spatial (1-3 dims)], got " + valueString(x));
    const Attrs& at = c.attrs();
    const std::string kind = at.stringOr("kind", "Max");
    if (kind != "Max" && kind != "Avg")
        return lowerError("Pool: unknown kind '" + kind + "'");
    const std::size_t sp = x.dims.size() - 2;
    const Dims k = at.intsOr("kernel_size", {});
    if (k.size() != sp)
        return lowerError("Pool: kernel_size " + dimsString(k) + " does not fit " + valueString(x));
    const Dims s = spatialAttr(at, "stride", sp, 1), dil = spatialAttr(at, "dilation", sp, 1);
    const Dims pb = spatialAttr(at, "padding", sp, 0);
    const Dims pe = at.has("padding_end") ? spatialAttr(at, "padding_end", sp, 0) : pb;
    const bool ceil = at.getBool("ceil_mode").value_or(at.intOr("ceil_mode", 0) != 0);
    PoolArgs a;
    a.isMax = kind == "Max";
    a.includePad = at.getBool("count_include_pad").value_or(at.intOr("count_include_pad", 0) != 0);
    Dims in(x.dims.begin() + 2, x.dims.end()), out;
    for (std::size_t d = 0; d < sp; ++d) {
        if (s[d] < 1 || dil[d] < 1 || k[d] < 1)
            return lowerError("Pool: kernel, stride and dilation must be positive");
        out.push_back(pooledSize(in[d], k[d], s[d], dil[d], pb[d], pe[d], ceil));
    }
    Dims dims{x.dims[0], x.dims[1]};
    dims.insert(dims.end(), out.begin(), out.end());
    if (dims != c.out.dims)
        return lowerError("Pool: the result is " + dimsString(dims) + ", the node states " + valueString(c.out));
    a.planes = x.dims[0] * x.dims[1];
    place(in, a.in);
    place(k, a.kernel);
    place(out, a.out);
    place(s, a.stride);
    place(dil, a.dilation);
    place(pb, a.padBegin);
    place(pe, a.padEnd);
    a.x = static_cast<const float*>(x.ptr);
    a.y = static_cast<float*>(c.out.ptr);
    return Launch([=](cudaStream_t st) { launchPool(a, st); });
}

LowerResult lowerFft(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    const bool planar = x.dtype == DType::F32;
    if ((!planar && x.dtype != DType::C64) || x.dims.empty() || (planar && x.dims.back() % 2))
        return lowerError("Fft needs F32 [..., 2n] (planar complex) or C64 [..., n], got " + valueString(x));
    if (x.dims != c.out.dims || x.dtype != c.out.dtype)
        return lowerError("Fft: output " + valueString(c.out) + " differs from input " + valueString(x));
    const bool inverse = c.attrs().getBool("inverse").value_or(false);
    const std::int64_t n = planar ? x.dims.back() / 2 : x.dims.back();
    const std::int64_t rows = n ? static_cast<std::int64_t>(x.elements()) / (planar ? 2 * n : n) : 0;
    const Result<double> scaleOr = fftScale(c.attrs(), inverse, n);
    if (!scaleOr)
        return scaleOr.error();
    const double scale = *scaleOr;
    if (n > 0x7fffffff || rows > 0x7fffffff)
        return lowerError("Fft: sizes beyond cuFFT's 32-bit plans");
    auto work = c.workspace(static_cast<std::size_t>(rows * n) * 8);
    if (!work)
        return work.error();
    cufftHandle plan = 0;
    if (rows * n > 0) {
        if (cufftPlan1d(&plan, int(n), CUFFT_C2C, int(rows)) != CUFFT_SUCCESS)
            return lowerError("Fft: cuFFT cannot plan " + std::to_string(rows) + " transforms of " + std::to_string(n));
        c.plan.adoptFftPlan(plan);
    }
    auto* buffer = static_cast<float*>(*work);
    const auto* src = static_cast<const float*>(x.ptr);
    auto* dst = static_cast<float*>(c.out.ptr);
    const auto fscale = static_cast<float>(scale);
    const int direction = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
    return Launch([=](cudaStream_t s) {
        if (rows * n == 0)
            return;
        launchComplexToInterleaved(src, planar, buffer, rows, n, s);
        cufftSetStream(plan, s);
        auto* cx = reinterpret_cast<cufftComplex*>(buffer);
        cufftExecC2C(plan, cx, cx, direction);
        launchInterleavedToComplex(buffer, dst, planar, rows, n, fscale, s);
    });
}

LowerResult lowerWelchPeaks(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    if ((x.dtype != DType::F32 && x.dtype != DType::C64) || x.dims.empty())
        return lowerError("WelchPeaks needs a complex spectrum (F32 planar or C64), got " + valueString(x));
    const bool planar = x.dtype == DType::F32;
    const std::int64_t k = c.attrs().intOr("k", 16), segs = c.attrs().intOr("n_segments", 1);
    const std::int64_t n = planar ? x.dims.back() / 2 : x.dims.back();
    const std::int64_t rows = n ? static_cast<std::int64_t>(x.elements()) / (planar ? 2 * n : n) : 0;
    if (k < 1 || segs < 1 || rows % segs)
        return lowerError("WelchPeaks: " + std::to_string(rows) + " spectra do not split into segments of "
                          + std::to_string(segs) + " (k " + std::to_string(k) + ")");
    if ((n / 2 + 1) * 4 > 48 * 1024)
        return lowerError("WelchPeaks: " + std::to_string(n) + "-point spectra exceed the kernel's shared memory");
    const std::int64_t batch = rows / segs;
    if (c.out.dims != Dims{batch, 2 * k} || c.out.dtype != DType::F32)
        return lowerError("WelchPeaks: the result is F32[" + std::to_string(batch) + "," + std::to_string(2 * k)
                          + "], the node states " + valueString(c.out));
    const auto* src = static_cast<const float*>(x.ptr);
    auto* dst = static_cast<float*>(c.out.ptr);
    return Launch([=](cudaStream_t s) { launchWelchPeaks(src, planar, dst, batch, segs, n, k, s); });
}

} // namespace costscope::cuda
