// SPDX-License-Identifier: MIT
// Ops that only change dims: Reshape, Unsqueeze, Squeeze, Flatten, Identity/Dropout; and ConstantOfShape.
#include "cpu/kernel.h"
#include "ir/constant_fill.h"

#include <cstring>

namespace costscope::cpu {

namespace {
KernelStatus copyWithDims(const HostTensor& x, Dims dims, HostTensor& out)
{
    if (product(dims) != static_cast<std::int64_t>(x.elements()))
        return fail("cannot view " + describe(x) + " as " + dimsString(dims));
    out.reset(std::move(dims), x.dtype());
    std::memcpy(out.bytes(), x.bytes(), x.byteSize());
    return ok();
}
} // namespace

KernelStatus runReshape(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto target = intsFromAttrOrInput(ctx, in, "new_shape", 1);
    if (!target)
        target = statedDims(ctx);
    if (!target)
        return fail("Reshape: no target shape (attribute new_shape, a shape input or a resolved node shape)");
    Dims dims = *target;
    int inferred = -1;
    std::int64_t known = 1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == 0 && i < x.rank() && !ctx.attrs().getBool("allowzero").value_or(false))
            dims[i] = x.dim(i); // ONNX: 0 keeps the input's dim
        if (dims[i] == -1) {
            if (inferred >= 0)
                return fail("Reshape: more than one -1 in " + dimsString(*target));
            inferred = static_cast<int>(i);
        } else if (dims[i] < 0) {
            return fail("Reshape: negative dim in " + dimsString(*target));
        } else {
            known *= dims[i];
        }
    }
    if (inferred >= 0)
        dims[static_cast<std::size_t>(inferred)] = known ? static_cast<std::int64_t>(x.elements()) / known : 0;
    return copyWithDims(x, dims, out);
}

KernelStatus runUnsqueeze(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto axes = intsFromAttrOrInput(ctx, in, "axes", 1);
    if (!axes)
        return fail("Unsqueeze: no axes");
    const std::size_t rank = x.rank() + axes->size();
    std::vector<bool> inserted(rank, false);
    for (std::int64_t a : *axes) {
        auto n = normalizeAxis(a, rank);
        if (!n || inserted[static_cast<std::size_t>(*n)])
            return fail("Unsqueeze: bad axis " + std::to_string(a) + " for output rank " + std::to_string(rank));
        inserted[static_cast<std::size_t>(*n)] = true;
    }
    Dims dims;
    std::size_t next = 0;
    for (std::size_t i = 0; i < rank; ++i)
        dims.push_back(inserted[i] ? 1 : x.dim(next++));
    return copyWithDims(x, dims, out);
}

KernelStatus runSqueeze(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto axes = intsFromAttrOrInput(ctx, in, "axes", 1);
    std::vector<bool> drop(x.rank(), false);
    if (!axes || axes->empty()) {
        for (std::size_t i = 0; i < x.rank(); ++i)
            drop[i] = x.dim(i) == 1;
    } else {
        for (std::int64_t a : *axes) {
            auto n = normalizeAxis(a, x.rank());
            if (!n || x.dim(static_cast<std::size_t>(*n)) != 1)
                return fail("Squeeze: axis " + std::to_string(a) + " of " + describe(x) + " is not 1");
            drop[static_cast<std::size_t>(*n)] = true;
        }
    }
    Dims dims;
    for (std::size_t i = 0; i < x.rank(); ++i)
        if (!drop[i])
            dims.push_back(x.dim(i));
    return copyWithDims(x, dims, out);
}

KernelStatus runFlatten(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const std::int64_t axisAttr = ctx.attrs().intOr("axis", 1);
    const std::int64_t axis = axisAttr < 0 ? axisAttr + static_cast<std::int64_t>(x.rank()) : axisAttr;
    if (axis < 0 || axis > static_cast<std::int64_t>(x.rank()))
        return fail("Flatten: axis " + std::to_string(axisAttr) + " out of range for " + describe(x));
    const auto a = static_cast<std::size_t>(axis);
    return copyWithDims(x, {product(x.dims(), 0, a), product(x.dims(), a)}, out);
}

KernelStatus runIdentity(KernelContext&, const Inputs& in, HostTensor& out)
{
    return copyWithDims(*in[0], in[0]->dims(), out);
}

KernelStatus runConstantOfShape(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    auto dims = intsFromAttrOrInput(ctx, in, "shape", 0);
    if (!dims)
        return fail("ConstantOfShape: no shape");
    for (std::int64_t d : *dims)
        if (d < 0)
            return fail("ConstantOfShape: negative dim in " + dimsString(*dims));
    const auto dtype = constantFillDType(ctx.node);
    if (!dtype)
        return fail("ConstantOfShape: unknown dtype '" + *ctx.attrs().getString("dtype") + "'");
    if (!isFillableDType(*dtype))
        return fail("ConstantOfShape: " + std::string(dtypeName(*dtype)) + " is not supported");
    const double value = constantFillValue(ctx.node);
    out.reset(*dims, *dtype);
    std::byte* dst = out.bytes();
    ctx.pool.parallelFor(static_cast<std::int64_t>(out.elements()), 1 << 16, [&](std::int64_t s, std::int64_t e) {
        fillElements(dst, *dtype, value, static_cast<std::uint64_t>(s), static_cast<std::uint64_t>(e));
    });
    return ok();
}

} // namespace costscope::cpu
