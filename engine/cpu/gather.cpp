// SPDX-License-Identifier: MIT
#include "cpu/kernel.h"

#include <cstring>

namespace costscope::cpu {

namespace {
KernelStatus requireIndices(const HostTensor& t)
{
    if (t.dtype() != DType::I64 && t.dtype() != DType::I32)
        return fail("indices must be I64 or I32, got " + describe(t));
    return ok();
}
} // namespace

KernelStatus runGather(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const HostTensor& idx = *in[1];
    if (auto s = requireIndices(idx); !s)
        return s;
    auto a = normalizeAxis(ctx.attrs().intOr("axis", 0), x.rank());
    if (!a)
        return fail("Gather: axis out of range for " + describe(x));
    const auto axis = static_cast<std::size_t>(*a);
    const std::int64_t dim = x.dim(axis);
    std::vector<std::int64_t> rows(idx.elements());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::int64_t k = idx.valueAsInt(i);
        if (k < -dim || k >= dim)
            return fail("Gather: index " + std::to_string(k) + " out of range for axis of size " + std::to_string(dim));
        rows[i] = k < 0 ? k + dim : k;
    }
    Dims dims(x.dims().begin(), x.dims().begin() + static_cast<std::ptrdiff_t>(axis));
    dims.insert(dims.end(), idx.dims().begin(), idx.dims().end());
    dims.insert(dims.end(), x.dims().begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.dims().end());
    out.reset(dims, x.dtype());
    const std::int64_t outer = product(x.dims(), 0, axis);
    const auto block = static_cast<std::size_t>(product(x.dims(), axis + 1)) * x.elementSize();
    const auto count = static_cast<std::int64_t>(rows.size());
    ctx.pool.parallelFor(outer * count, 64, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t i = s; i < e; ++i) {
            const std::int64_t o = i / count, j = i % count;
            const auto src = static_cast<std::size_t>(o * dim + rows[static_cast<std::size_t>(j)]) * block;
            std::memcpy(out.bytes() + static_cast<std::size_t>(i) * block, x.bytes() + src, block);
        }
    });
    return ok();
}

KernelStatus runGatherElements(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const HostTensor& idx = *in[1];
    if (auto s = requireIndices(idx); !s)
        return s;
    auto a = normalizeAxis(ctx.attrs().intOr("axis", 0), x.rank());
    if (!a || idx.rank() != x.rank())
        return fail("GatherElements: axis or rank does not fit " + describe(x) + " and " + describe(idx));
    const auto axis = static_cast<std::size_t>(*a);
    out.reset(idx.dims(), x.dtype());
    const Dims xStrides = contiguousStrides(x.dims());
    const std::size_t es = x.elementSize();
    for (std::uint64_t i = 0; i < idx.elements(); ++i) {
        std::int64_t rem = static_cast<std::int64_t>(i), off = 0;
        for (std::size_t d = idx.rank(); d-- > 0;) {
            std::int64_t k = rem % idx.dim(d);
            rem /= idx.dim(d);
            if (d == axis) {
                k = idx.valueAsInt(i);
                if (k < 0)
                    k += x.dim(d);
            }
            if (k < 0 || k >= x.dim(d))
                return fail("GatherElements: index out of range for " + describe(x));
            off += k * xStrides[d];
        }
        std::memcpy(out.bytes() + i * es, x.bytes() + static_cast<std::size_t>(off) * es, es);
    }
    return ok();
}

} // namespace costscope::cpu
