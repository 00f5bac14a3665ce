// SPDX-License-Identifier: MIT
// ONNX ScatterElements, ScatterND (reduction none, add, mul, max, min) and GatherND (batch_dims). Computed in F64
// (integers past 2^53 lose precision; the ops move indices and small values in practice).
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <algorithm>

namespace costscope::cpu {

namespace {
// Applies an update under the reduction; false for an unknown one.
bool reduceInto(double& target, double update, const std::string& reduction)
{
    if (reduction == "none")
        target = update;
    else if (reduction == "add")
        target += update;
    else if (reduction == "mul")
        target *= update;
    else if (reduction == "max")
        target = std::max(target, update);
    else if (reduction == "min")
        target = std::min(target, update);
    else
        return false;
    return true;
}
} // namespace

KernelStatus runScatterElements(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 3 || in[1]->dims() != in[2]->dims() || in[1]->rank() != in[0]->rank())
        return fail("ScatterElements needs data, and indices and updates of one shape and the data's rank");
    const HostTensor& data = *in[0];
    auto axis = normalizeAxis(ctx.attrs().intOr("axis", 0), data.rank());
    if (!axis)
        return fail("ScatterElements: axis out of range for " + describe(data));
    const std::string reduction = ctx.attrs().stringOr("reduction", "none");
    HostTensor result = toF64(ctx.pool, data);
    const HostTensor updates = toF64(ctx.pool, *in[2]);
    const Dims strides = contiguousStrides(data.dims()), idxDims = in[1]->dims();
    const auto a = static_cast<std::size_t>(*axis);
    for (std::uint64_t e = 0; e < in[1]->elements(); ++e) {
        std::int64_t rem = static_cast<std::int64_t>(e), offset = 0;
        for (std::size_t d = idxDims.size(); d-- > 0;) {
            std::int64_t coord = rem % idxDims[d];
            rem /= idxDims[d];
            if (d == a) {
                coord = in[1]->valueAsInt(e);
                coord = coord < 0 ? coord + data.dim(d) : coord;
                if (coord < 0 || coord >= data.dim(d))
                    return fail("ScatterElements: index " + std::to_string(in[1]->valueAsInt(e)) + " is out of range");
            }
            offset += coord * strides[d];
        }
        if (!reduceInto(result.values<double>()[static_cast<std::size_t>(offset)], updates.values<double>()[e],
                        reduction))
            return fail("ScatterElements: unknown reduction '" + reduction + "'");
    }
    return fromWide(ctx, result, data.dtype(), out);
}

KernelStatus runScatterND(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 3 || in[1]->rank() == 0)
        return fail("ScatterND needs data, indices and updates");
    const HostTensor& data = *in[0];
    const HostTensor& indices = *in[1];
    const auto k = static_cast<std::size_t>(indices.dim(indices.rank() - 1));
    if (k > data.rank())
        return fail("ScatterND: index tuples of " + std::to_string(k) + " for " + describe(data));
    const std::string reduction = ctx.attrs().stringOr("reduction", "none");
    HostTensor result = toF64(ctx.pool, data);
    const HostTensor updates = toF64(ctx.pool, *in[2]);
    const Dims strides = contiguousStrides(data.dims());
    const std::int64_t slice = product(data.dims(), k), tuples = product(indices.dims(), 0, indices.rank() - 1);
    if (static_cast<std::int64_t>(updates.elements()) != tuples * slice)
        return fail("ScatterND: updates " + describe(*in[2]) + " do not fit");
    for (std::int64_t t = 0; t < tuples; ++t) {
        std::int64_t offset = 0;
        for (std::size_t d = 0; d < k; ++d) {
            std::int64_t coord = indices.valueAsInt(static_cast<std::uint64_t>(t) * k + d);
            coord = coord < 0 ? coord + data.dim(d) : coord;
            if (coord < 0 || coord >= data.dim(d))
                return fail("ScatterND: index out of range for " + describe(data));
            offset += coord * strides[d];
        }
        for (std::int64_t i = 0; i < slice; ++i)
            if (!reduceInto(result.values<double>()[static_cast<std::size_t>(offset + i)],
                            updates.values<double>()[static_cast<std::size_t>(t * slice + i)], reduction))
                return fail("ScatterND: unknown reduction '" + reduction + "'");
    }
    return fromWide(ctx, result, data.dtype(), out);
}

KernelStatus runGatherND(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 2 || in[1]->rank() == 0)
        return fail("GatherND needs data and indices");
    const HostTensor& data = *in[0];
    const HostTensor& indices = *in[1];
    const auto batch = static_cast<std::size_t>(ctx.attrs().intOr("batch_dims", 0));
    const auto k = static_cast<std::size_t>(indices.dim(indices.rank() - 1));
    if (batch + k > data.rank() || batch >= indices.rank())
        return fail("GatherND: index tuples of " + std::to_string(k) + " after " + std::to_string(batch)
                    + " batch dims for " + describe(data));
    Dims dims(indices.dims().begin(), indices.dims().end() - 1);
    dims.insert(dims.end(), data.dims().begin() + static_cast<std::ptrdiff_t>(batch + k), data.dims().end());
    out.reset(dims, data.dtype());
    const Dims strides = contiguousStrides(data.dims());
    const std::int64_t batches = product(data.dims(), 0, batch), slice = product(data.dims(), batch + k);
    const std::int64_t perBatch = product(indices.dims(), batch, indices.rank() - 1);
    const std::size_t es = data.elementSize();
    for (std::int64_t b = 0; b < batches; ++b)
        for (std::int64_t t = 0; t < perBatch; ++t) {
            std::int64_t offset = b * (batch ? strides[batch - 1] : 0);
            for (std::size_t d = 0; d < k; ++d) {
                const auto at = static_cast<std::uint64_t>((b * perBatch + t) * static_cast<std::int64_t>(k)) + d;
                std::int64_t coord = indices.valueAsInt(at);
                coord = coord < 0 ? coord + data.dim(batch + d) : coord;
                if (coord < 0 || coord >= data.dim(batch + d))
                    return fail("GatherND: index out of range for " + describe(data));
                offset += coord * strides[batch + d];
            }
            std::copy_n(data.bytes() + static_cast<std::size_t>(offset) * es, static_cast<std::size_t>(slice) * es,
                        out.bytes() + static_cast<std::size_t>((b * perBatch + t) * slice) * es);
        }
    return ok();
}

} // namespace costscope::cpu
