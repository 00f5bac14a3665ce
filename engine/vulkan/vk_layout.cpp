// SPDX-License-Identifier: MIT
// Views (Reshape, Squeeze, Unsqueeze, Flatten, Identity, Dropout: no dispatch) and the copies through
// copy.comp: Transpose, Slice, Narrow, Concat, Expand, Tile, Pad.
#include "vulkan/vk_lowering.h"

#include <algorithm>
#include <cstring>

namespace costscope::vk {

namespace {
struct CopyDim {
    std::int64_t outDim, dstStride, srcStride, start, step, srcDim;
    bool wrap = false;
};

int wordsOf(DType t)
{
    return static_cast<int>(deviceElementSize(t) / 4);
}

// Appends a copy.comp dispatch writing dst[dstBase + sum o_d * dstStride_d] for every output position.
void emitCopy(Lowering& l, std::size_t src, std::size_t dst, DType dtype, std::int64_t dstBase, std::int64_t srcBase,
              const std::vector<CopyDim>& dims, int padMode = 0, std::array<std::int32_t, 2> padValue = {0, 0})
{
    Dispatch d;
    d.shader = "copy";
    std::uint64_t n = 1;
    for (const CopyDim& c : dims)
        n *= static_cast<std::uint64_t>(c.outDim);
    d.params = {i32(n), i32(dims.size()), wordsOf(dtype), i32(dstBase), i32(srcBase), padMode, padValue[0], padValue[1]};
    for (const CopyDim& c : dims)
        d.params.insert(d.params.end(), {i32(c.outDim), i32(c.dstStride), i32(c.srcStride), i32(c.start), i32(c.step),
                                         i32(c.srcDim), c.wrap ? 1 : 0});
    d.slots = {src, dst};
    d.groups = linearGroups(n);
    if (n)
        l.dispatches.push_back(std::move(d));
}

// Plain per-dim copy description of `in` read with `srcStrides` into a contiguous `outDims`.
std::vector<CopyDim> denseDims(const Dims& outDims, const Dims& srcStrides, const Dims& srcDims)
{
    const Dims dst = contiguousStrides(outDims);
    std::vector<CopyDim> v;
    for (std::size_t i = 0; i < outDims.size(); ++i)
        v.push_back({outDims[i], dst[i], srcStrides[i], 0, 1, srcDims[i], false});
    return v;
}

LowerStatus sliceCopy(Lowering& l, const Dims& starts, const Dims& ends, Dims axes, Dims steps)
{
    const Value& x = *l.in[0];
    const auto w =
        sliceWindow(x.dims, starts, ends, std::move(axes), std::move(steps), [&] { return dimsString(x.dims); });
    if (!w)
        return w.error();
    const Dims inStrides = contiguousStrides(x.dims);
    const Dims &dims = w->dims, &begin = w->first, &step = w->step;
    l.out = {dims, x.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const Dims dstStrides = contiguousStrides(dims);
    std::vector<CopyDim> cd;
    for (std::size_t d = 0; d < dims.size(); ++d)
        cd.push_back({dims[d], dstStrides[d], inStrides[d], begin[d], step[d], x.dims[d], false});
    emitCopy(l, x.slot, dst, x.dtype, 0, 0, cd);
    return true;
}
} // namespace

LowerStatus lowerView(Lowering& l)
{
    const Value& x = *l.in[0];
    const Attrs& a = l.attrs();
    Dims dims = x.dims;
    const std::size_t rank = x.dims.size();
    switch (l.node.op.kind) {
    case OpKind::Reshape: {
        auto target = intsFromAttrOrConstant(l, "new_shape", 1);
        if (!target)
            target = statedDims(l);
        if (!target)
            return lowerError("Reshape: no target shape (new_shape, a constant shape input or resolved node dims)");
        dims = *target;
        int inferred = -1;
        std::int64_t known = 1;
        for (std::size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] == 0 && i < rank && !a.getBool("allowzero").value_or(false))
                dims[i] = x.dims[i];
            if (dims[i] == -1) {
                if (inferred >= 0)
                    return lowerError("Reshape: more than one -1 in " + dimsString(*target));
                inferred = static_cast<int>(i);
            } else if (dims[i] < 0) {
                return lowerError("Reshape: negative dim in " + dimsString(*target));
            } else {
                known *= dims[i];
            }
        }
        if (inferred >= 0)
            dims[static_cast<std::size_t>(inferred)] = known ? static_cast<std::int64_t>(elementCount(x.dims)) / known : 0;
        break;
    }
    case OpKind::Unsqueeze: {
        auto axes = intsFromAttrOrConstant(l, "axes", 1);
        if (!axes)
            return lowerError("Unsqueeze: no axes");
        const std::size_t outRank = rank + axes->size();
        std::vector<bool> inserted(outRank, false);
        for (std::int64_t ax : *axes) {
            auto n = normalizeAxis(ax, outRank);
            if (!n || inserted[static_cast<std::size_t>(*n)])
                return lowerError("Unsqueeze: bad axis " + std::to_string(ax));
            inserted[static_cast<std::size_t>(*n)] = true;
        }
        dims.clear();
        std::size_t next = 0;
        for (std::size_t i = 0; i < outRank; ++i)
            dims.push_back(inserted[i] ? 1 : x.dims[next++]);
        break;
    }
    case OpKind::Squeeze: {
        auto axes = intsFromAttrOrConstant(l, "axes", 1);
        std::vector<bool> drop(rank, false);
        for (std::size_t i = 0; i < rank; ++i)
            drop[i] = (!axes || axes->empty()) && x.dims[i] == 1;
        for (std::int64_t ax : axes.value_or(Dims{})) {
            auto n = normalizeAxis(ax, rank);
            if (!n || x.dims[static_cast<std::size_t>(*n)] != 1)
                return lowerError("Squeeze: axis " + std::to_string(ax) + " of " + dimsString(x.dims) + " is not 1");
            drop[static_cast<std::size_t>(*n)] = true;
        }
        dims.clear();
        for (std::size_t i = 0; i < rank; ++i)
            if (!drop[i])
                dims.push_back(x.dims[i]);
        break;
    }
    case OpKind::Flatten: {
        std::int64_t axis = a.intOr("axis", 1);
        if (axis < 0)
            axis += static_cast<std::int64_t>(rank);
        if (axis < 0 || axis > static_cast<std::int64_t>(rank))
            return lowerError("Flatten: axis out of range for " + dimsString(x.dims));
        std::int64_t lead = 1, tail = 1;
        for (std::size_t i = 0; i < rank; ++i)
            (static_cast<std::int64_t>(i) < axis ? lead : tail) *= x.dims[i];
        dims = {lead, tail};
        break;
    }
    default: break; // Identity, Dropout
    }
    l.out = {dims, x.dtype, x.slot};
    l.view = true;
    return true;
}

LowerStatus lowerTranspose(Lowering& l)
{
    const Value& x = *l.in[0];
    const auto t = transposeView(x.dims, l.attrs().intsOr("perm", {}), [&] { return dimsString(x.dims); });
    if (!t)
        return t.error();
    const Dims &dims = t->dims, &strides = t->strides;
    l.out = {dims, x.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    emitCopy(l, x.slot, dst, x.dtype, 0, 0, denseDims(dims, strides, dims));
    return true;
}

LowerStatus lowerSlice(Lowering& l)
{
    auto starts = intsFromAttrOrConstant(l, "starts", 1);
    auto ends = intsFromAttrOrConstant(l, "ends", 2);
    if (!starts || !ends)
        return lowerError("Slice: starts and ends are needed (attributes or constant inputs)");
    return sliceCopy(l, *starts, *ends, intsFromAttrOrConstant(l, "axes", 3).value_or(Dims{}),
                     intsFromAttrOrConstant(l, "steps", 4).value_or(Dims{}));
}

LowerStatus lowerNarrow(Lowering& l)
{
    const std::int64_t start = l.attrs().intOr("start", 0), len = l.attrs().intOr("len", 0);
    auto a = normalizeAxis(l.attrs().intOr("axis", 0), l.in[0]->dims.size());
    if (!a || start < 0 || len < 0 || start + len > l.in[0]->dims[static_cast<std::size_t>(*a)])
        return lowerError("Narrow: axis, start and len do not fit " + dimsString(l.in[0]->dims));
    return sliceCopy(l, {start}, {start + len}, {*a}, {1});
}

LowerStatus lowerConcat(Lowering& l)
{
    const Value& first = *l.in[0];
    auto a = normalizeAxis(l.attrs().intOr("axis", 0), first.dims.size());
    if (!a)
        return lowerError("Concat: axis out of range for " + dimsString(first.dims));
    const auto axis = static_cast<std::size_t>(*a);
    Dims dims = first.dims;
    dims[axis] = 0;
    for (const Value* t : l.in) {
        bool fits = t->dims.size() == first.dims.size() && t->dtype == first.dtype;
        for (std::size_t d = 0; fits && d < t->dims.size(); ++d)
            fits = d == axis || t->dims[d] == first.dims[d];
        if (!fits)
            return lowerError("Concat: " + dimsString(t->dims) + " does not fit " + dimsString(first.dims));
        dims[axis] += t->dims[axis];
    }
    l.out = {dims, first.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const Dims dstStrides = contiguousStrides(dims);
    std::int64_t offset = 0;
    for (const Value* t : l.in) {
        const Dims src = contiguousStrides(t->dims);
        std::vector<CopyDim> cd;
        for (std::size_t d = 0; d < dims.size(); ++d)
            cd.push_back({t->dims[d], dstStrides[d], src[d], 0, 1, t->dims[d], false});
        emitCopy(l, t->slot, dst, first.dtype, offset * dstStrides[axis], 0, cd);
        offset += t->dims[axis];
    }
    return true;
}

LowerStatus lowerExpand(Lowering& l)
{
    const Value& x = *l.in[0];
    auto target = intsFromAttrOrConstant(l, "target_shape", 1);
    if (!target)
        target = statedDims(l);
    if (!target)
        return lowerError("Expand: no target shape (target_shape, a constant input or resolved node dims)");
    auto dims = broadcastDims(x.dims, *target);
    if (!dims)
        return lowerError("Expand: " + dimsString(x.dims) + " does not broadcast to " + dimsString(*target));
    l.out = {*dims, x.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    emitCopy(l, x.slot, dst, x.dtype, 0, 0, denseDims(*dims, broadcastStrides(x.dims, *dims), *dims));
    return true;
}

LowerStatus lowerTile(Lowering& l)
{
    const Value& x = *l.in[0];
    auto repeats = intsFromAttrOrConstant(l, "repeats", 1);
    if (!repeats || repeats->size() != x.dims.size())
        return lowerError("Tile: repeats must have one entry per dim of " + dimsString(x.dims));
    Dims dims = x.dims;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if ((*repeats)[i] < 0)
            return lowerError("Tile: negative repeat");
        dims[i] *= (*repeats)[i];
    }
    l.out = {dims, x.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    auto cd = denseDims(dims, contiguousStrides(x.dims), x.dims);
    for (CopyDim& c : cd)
        c.wrap = true;
    emitCopy(l, x.slot, dst, x.dtype, 0, 0, cd);
    return true;
}

LowerStatus lowerPad(Lowering& l)
{
    const Value& x = *l.in[0];
    const std::size_t rank = x.dims.size();
    if (l.attrs().has("axes") || l.attrs().has("axes_input")) // the import writes out constant axes where it can
        return lowerError("Pad: pads for some axes only (opset 18's axes) run on the CPU backend only");
    auto pads = intsFromAttrOrConstant(l, "pads", 1);
    if (!pads || pads->size() != 2 * rank)
        return lowerError("Pad: pads must hold 2 x rank values for " + dimsString(x.dims));
    const std::string mode = l.attrs().stringOr("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge")
        return lowerError("Pad: unknown mode '" + mode + "'");
    double value = l.attrs().doubleOr("value", 0.0);
    if (!l.attrs().has("value") && l.constants.size() > 2 && l.constants[2] && l.constants[2]->elements() == 1)
        value = l.constants[2]->valueAsDouble(0);
    else if (!l.attrs().has("value") && l.in.size() > 2 && !l.constants[2])
        return lowerError("Pad: the pad value must be an attribute or a constant input on Vulkan");
    Dims dims(rank), srcStrides = contiguousStrides(x.dims);
    for (std::size_t d = 0; d < rank; ++d) {
        dims[d] = x.dims[d] + (*pads)[d] + (*pads)[d + rank];
        if (dims[d] < 0 || (mode != "constant" && x.dims[d] == 0 && dims[d] > 0))
            return lowerError("Pad: pads " + dimsString(*pads) + " do not fit " + dimsString(x.dims));
    }
    std::array<std::int32_t, 2> fill{0, 0};
    if (x.dtype == DType::F32) {
        fill[0] = floatBits(value);
    } else if (x.dtype == DType::I64) {
        const auto v = static_cast<std::int64_t>(value);
        std::memcpy(fill.data(), &v, 8);
    } else if (x.dtype == DType::F64) {
        std::memcpy(fill.data(), &value, 8);
    } else {
        fill[0] = static_cast<std::int32_t>(value);
    }
    l.out = {dims, x.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const Dims dstStrides = contiguousStrides(dims);
    std::vector<CopyDim> cd;
    for (std::size_t d = 0; d < rank; ++d)
        cd.push_back({dims[d], dstStrides[d], srcStrides[d], -(*pads)[d], 1, x.dims[d], false});
    emitCopy(l, x.slot, dst, x.dtype, 0, 0, cd, mode == "constant" ? 0 : mode == "edge" ? 1 : 2, fill);
    return true;
}

LowerStatus lowerGather(Lowering& l)
{
    const Value& x = *l.in[0];
    const Value& idx = *l.in[1];
    if (idx.dtype != DType::I64 && idx.dtype != DType::I32)
        return lowerError("Gather: indices must be I64 or I32, got " + std::string(dtypeName(idx.dtype)));
    auto a = normalizeAxis(l.attrs().intOr("axis", 0), x.dims.size());
    if (!a)
        return lowerError("Gather: axis out of range for " + dimsString(x.dims));
    const auto axis = static_cast<std::size_t>(*a);
    Dims dims(x.dims.begin(), x.dims.begin() + static_cast<std::ptrdiff_t>(axis));
    dims.insert(dims.end(), idx.dims.begin(), idx.dims.end());
    dims.insert(dims.end(), x.dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.dims.end());
    l.out = {dims, x.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < x.dims.size(); ++d)
        (d < axis ? outer : inner) *= d == axis ? 1 : x.dims[d];
    const std::uint64_t n = elementCount(dims);
    Dispatch d{"gather",
               {i32(n), 0, wordsOf(x.dtype), idx.dtype == DType::I64 ? 1 : 0, i32(outer), i32(elementCount(idx.dims)),
                i32(inner), i32(x.dims[axis])},
               {x.slot, idx.slot, dst},
               linearGroups(n)};
    if (n)
        l.dispatches.push_back(std::move(d));
    return true;
}

LowerStatus lowerGatherElements(Lowering& l)
{
    const Value& x = *l.in[0];
    const Value& idx = *l.in[1];
    if (idx.dtype != DType::I64 && idx.dtype != DType::I32)
        return lowerError("GatherElements: indices must be I64 or I32");
    auto a = normalizeAxis(l.attrs().intOr("axis", 0), x.dims.size());
    if (!a || idx.dims.size() != x.dims.size())
        return lowerError("GatherElements: axis or rank does not fit " + dimsString(x.dims) + " and "
                          + dimsString(idx.dims));
    l.out = {idx.dims, x.dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t n = elementCount(idx.dims);
    const Dims xs = contiguousStrides(x.dims);
    Dispatch d{"gather",
               {i32(n), 1, wordsOf(x.dtype), idx.dtype == DType::I64 ? 1 : 0, 0, 0, 0,
                i32(x.dims[static_cast<std::size_t>(*a)]), i32(x.dims.size()), i32(*a)},
               {x.slot, idx.slot, dst},
               linearGroups(n)};
    for (std::size_t k = 0; k < x.dims.size(); ++k)
        d.params.insert(d.params.end(), {i32(idx.dims[k]), i32(xs[k])});
    if (n)
        l.dispatches.push_back(std::move(d));
    return true;
}

} // namespace costscope::vk
