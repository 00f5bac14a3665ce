// SPDX-License-Identifier: MIT
// ONNX CenterCropPad (opset 18) and Col2Im (opset 18). Both move elements without computing on them, so they copy
// bytes of any dtype.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cstring>

namespace costscope::cpu {

KernelStatus runCenterCropPad(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const std::size_t rank = x.rank();
    auto shape = intsFromAttrOrInput(ctx, in, "", 1);
    Dims axes;
    for (std::int64_t a : ctx.attrs().getInts("axes").value_or(Dims{})) {
        auto n = normalizeAxis(a, rank);
        if (!n)
            return fail("CenterCropPad: axis " + std::to_string(a) + " is out of range for " + describe(x));
        axes.push_back(*n);
    }
    if (!ctx.attrs().has("axes"))
        for (std::size_t d = 0; d < rank; ++d)
            axes.push_back(static_cast<std::int64_t>(d));
    if (!shape || shape->size() != axes.size())
        return fail("CenterCropPad: shape must give one size per axis (" + std::to_string(axes.size()) + ")");
    Dims dims = x.dims(), offset(rank, 0); // source index = output index + offset
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const auto a = static_cast<std::size_t>(axes[i]);
        const std::int64_t want = (*shape)[i], have = x.dim(a);
        if (want < 0)
            return fail("CenterCropPad: size " + std::to_string(want) + " is negative");
        offset[a] = want < have ? (have - want) / 2 : -((want - have) / 2);
        dims[a] = want;
    }
    out.reset(dims, x.dtype());
    std::memset(out.bytes(), 0, out.byteSize());
    const Dims strides = contiguousStrides(x.dims());
    const std::size_t es = x.elementSize();
    for (std::int64_t i = 0; i < product(dims); ++i) {
        std::int64_t rem = i, src = 0;
        bool inside = true;
        for (std::size_t d = rank; d-- > 0;) {
            const std::int64_t k = rem % dims[d] + offset[d];
            rem /= dims[d];
            inside = inside && k >= 0 && k < x.dim(d);
            src += k * strides[d];
        }
        if (inside)
            std::memcpy(out.bytes() + static_cast<std::size_t>(i) * es, x.bytes() + static_cast<std::size_t>(src) * es,
                        es);
    }
    return ok();
}

KernelStatus runCol2Im(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto image = intsFromAttrOrInput(ctx, in, "", 1), block = intsFromAttrOrInput(ctx, in, "", 2);
    if (x.rank() != 3 || !image || !block || image->size() != block->size() || image->empty())
        return fail("Col2Im needs a rank-3 input and image_shape and block_shape of one length, got " + describe(x));
    const std::size_t n = image->size();
    const Dims dil = ctx.attrs().getInts("dilations").value_or(Dims(n, 1));
    const Dims strides = ctx.attrs().getInts("strides").value_or(Dims(n, 1));
    const Dims pads = ctx.attrs().getInts("pads").value_or(Dims(2 * n, 0));
    if (dil.size() != n || strides.size() != n || pads.size() != 2 * n)
        return fail("Col2Im: dilations, strides and pads must fit " + std::to_string(n) + " spatial dims");
    const std::int64_t blockSize = product(*block);
    Dims blocksPerDim(n);
    for (std::size_t d = 0; d < n; ++d) {
        const std::int64_t span = dil[d] * ((*block)[d] - 1) + 1;
        blocksPerDim[d] = (((*image)[d] + pads[d] + pads[d + n] - span) / strides[d]) + 1;
    }
    const std::int64_t blocks = product(blocksPerDim);
    if (blockSize <= 0 || x.dim(1) % blockSize != 0 || x.dim(2) != blocks)
        return fail("Col2Im: input " + describe(x) + " does not hold blocks of " + dimsString(*block) + " over "
                    + std::to_string(blocks) + " positions");
    const std::int64_t channels = x.dim(1) / blockSize;
    Dims dims = {x.dim(0), channels};
    dims.insert(dims.end(), image->begin(), image->end());
    out.reset(dims, x.dtype());
    HostTensor sum(dims, DType::F64);
    double* o = sum.values<double>().data();
    const HostTensor wide = toF64(ctx.pool, x);
    const double* src = wide.values<double>().data();
    const std::int64_t imageSize = product(*image);
    Dims b(n), l(n);
    for (std::int64_t nc = 0; nc < x.dim(0) * channels; ++nc)
        for (std::int64_t bi = 0; bi < blockSize; ++bi) {
            for (std::int64_t rem = bi, d = static_cast<std::int64_t>(n); d-- > 0;) {
                b[static_cast<std::size_t>(d)] = rem % (*block)[static_cast<std::size_t>(d)];
                rem /= (*block)[static_cast<std::size_t>(d)];
            }
            for (std::int64_t li = 0; li < blocks; ++li) {
                std::int64_t pos = 0;
                bool inside = true;
                for (std::int64_t rem = li, d = static_cast<std::int64_t>(n); d-- > 0;) {
                    const auto u = static_cast<std::size_t>(d);
                    l[u] = rem % blocksPerDim[u];
                    rem /= blocksPerDim[u];
                }
                for (std::size_t d = 0; d < n; ++d) {
                    const std::int64_t p = l[d] * strides[d] - pads[d] + b[d] * dil[d];
                    inside = inside && p >= 0 && p < (*image)[d];
                    pos = pos * (*image)[d] + p;
                }
                if (inside)
                    o[nc * imageSize + pos] += src[(nc * blockSize + bi) * blocks + li];
            }
        }
    return fromWide(ctx, sum, x.dtype(), out);
}

} // namespace costscope::cpu
