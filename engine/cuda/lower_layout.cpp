// SPDX-License-Identifier: MIT
// Transpose, Slice, Narrow, Concat and Expand as strided copies (any dtype; a slice of contiguous spans as one 2-D
// memcpy); Gather, GatherElements, GatherND, Pad and Tile as index-mapped copies.
#include "cuda/cuda_lower.h"
#include "half.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace costscope::cuda {

namespace {
int elementSize(const DeviceValue& v)
{
    return static_cast<int>(byteSize(v.dtype));
}

LowerResult copyLaunch(const void* src, void* dst, const StridedCopyArgs& a)
{
    return Launch([=](cudaStream_t s) { launchStridedCopy(src, dst, a, s); });
}

LowerResult checkOut(const LowerContext& c, const Dims& dims, DType dtype, const char* op)
{
    if (dims != c.out.dims || dtype != c.out.dtype)
        return lowerError(std::string(op) + ": the result is " + Shape::of(dims, dtype).toString()
                          + ", the node states " + valueString(c.out));
    return Launch{};
}

// A slice of at most one axis with step 1 is `rows` contiguous spans at a fixed pitch (GPT-2's Q/K/V split of
// its fused projection): one cudaMemcpy2DAsync, which copies at memory bandwidth. The strided-copy kernel, which
// maps every element's index, took ~10 us per [8,128,768] split on an H200, 36 of them per GPT-2 small run.
std::optional<Launch> spanCopy(const DeviceValue& x, const Dims& dims, const Dims& strides, const Dims& inStrides,
                               std::int64_t base, void* out)
{
    std::optional<std::size_t> sliced;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if (strides[d] != inStrides[d])
            return std::nullopt;
        if (dims[d] != x.dims[d]) {
            if (sliced)
                return std::nullopt;
            sliced = d;
        }
    }
    const std::size_t ax = sliced.value_or(0);
    const auto es = static_cast<std::size_t>(elementSize(x));
    std::size_t rows = 1;
    for (std::size_t d = 0; d < ax; ++d)
        rows *= static_cast<std::size_t>(x.dims[d]);
    const std::size_t inner = dims.empty() ? 1 : static_cast<std::size_t>(inStrides[ax]);
    const std::size_t width = (dims.empty() ? 1 : static_cast<std::size_t>(dims[ax])) * inner * es;
    const std::size_t pitch = (dims.empty() ? 1 : static_cast<std::size_t>(x.dims[ax])) * inner * es;
    const char* src = static_cast<const char*>(x.ptr) + static_cast<std::size_t>(base) * es;
    return Launch([=](cudaStream_t s) {
        if (rows && width)
            cudaMemcpy2DAsync(out, width, src, pitch, width, rows, cudaMemcpyDeviceToDevice, s);
    });
}

LowerResult sliceLaunch(LowerContext& c, const Dims& starts, const Dims& ends, Dims axes, Dims steps)
{
    const DeviceValue& x = *c.in[0];
    const auto w = sliceWindow(x.dims, starts, ends, std::move(axes), std::move(steps), [&] { return valueString(x); });
    if (!w)
        return w.error();
    const Dims& dims = w->dims;
    const Dims inStrides = contiguousStrides(x.dims);
    Dims strides = inStrides;
    std::int64_t base = 0;
    for (std::size_t d = 0; d < inStrides.size(); ++d) {
        base += w->first[d] * inStrides[d];
        strides[d] = inStrides[d] * w->step[d];
    }
    if (auto r = checkOut(c, dims, x.dtype, "Slice"); !r)
        return r;
    if (auto copy = spanCopy(x, dims, strides, inStrides, base, c.out.ptr))
        return *copy;
    StridedCopyArgs a;
    if (!makeStridedCopy(dims, strides, contiguousStrides(dims), base, 0, elementSize(x), a))
        return lowerError("Slice: rank above " + std::to_string(kMaxRank));
    return copyLaunch(x.ptr, c.out.ptr, a);
}
bool supportedElementSize(int es)
{
    return es == 1 || es == 2 || es == 4 || es == 8;
}

// Pad and Tile share the index-mapped copy; `a` holds the mode, pads and fill, this sets the shapes.
LowerResult padLaunch(const LowerContext& c, const Dims& outDims, PadArgs a, const char* op)
{
    const DeviceValue& x = *c.in[0];
    if (auto r = checkOut(c, outDims, x.dtype, op); !r)
        return r;
    if (x.dims.size() > static_cast<std::size_t>(kMaxRank) || !supportedElementSize(elementSize(x)))
        return lowerError(std::string(op) + ": " + valueString(x) + " has a rank above " + std::to_string(kMaxRank)
                          + " or an element size the CUDA backend does not copy");
    const Dims inStrides = contiguousStrides(x.dims);
    a.rank = static_cast<int>(x.dims.size());
    for (std::size_t d = 0; d < x.dims.size(); ++d) {
        a.outDims[d] = outDims[d];
        a.inDims[d] = x.dims[d];
        a.inStrides[d] = inStrides[d];
    }
    a.count = product(outDims);
    a.elementSize = elementSize(x);
    const void* px = x.ptr;
    void* po = c.out.ptr;
    return Launch([=](cudaStream_t s) { launchPad(px, po, a, s); });
}
} // namespace

LowerResult lowerTranspose(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    const auto t = transposeView(x.dims, c.attrs().intsOr("perm", {}), [&] { return valueString(x); });
    if (!t)
        return t.error();
    const Dims &dims = t->dims, &strides = t->strides;
    if (auto r = checkOut(c, dims, x.dtype, "Transpose"); !r)
        return r;
    StridedCopyArgs a;
    if (!makeStridedCopy(dims, strides, contiguousStrides(dims), 0, 0, elementSize(x), a))
        return lowerError("Transpose: rank above " + std::to_string(kMaxRank));
    return copyLaunch(x.ptr, c.out.ptr, a);
}

LowerResult lowerSlice(LowerContext& c)
{
    auto starts = c.intsFromAttrOrConstant("starts", 1);
    auto ends = c.intsFromAttrOrConstant("ends", 2);
    if (!starts || !ends)
        return lowerError("Slice: starts and ends must be attributes or constant inputs on the CUDA backend");
    return sliceLaunch(c, *starts, *ends, c.intsFromAttrOrConstant("axes", 3).value_or(Dims{}),
                       c.intsFromAttrOrConstant("steps", 4).value_or(Dims{}));
}

LowerResult lowerNarrow(LowerContext& c)
{
    const std::int64_t start = c.attrs().intOr("start", 0), len = c.attrs().intOr("len", 0);
    const std::int64_t axis = c.attrs().intOr("axis", 0);
    auto a = normalizeAxis(axis, c.in[0]->dims.size());
    if (!a || start < 0 || len < 0 || start + len > c.in[0]->dims[static_cast<std::size_t>(*a)])
        return lowerError("Narrow: axis " + std::to_string(axis) + " start " + std::to_string(start) + " len "
                          + std::to_string(len) + " does not fit " + valueString(*c.in[0]));
    return sliceLaunch(c, {start}, {start + len}, {*a}, {1});
}

LowerResult lowerConcat(LowerContext& c)
{
    const DeviceValue& first = *c.in[0];
    auto a = normalizeAxis(c.attrs().intOr("axis", 0), first.dims.size());
    if (!a)
        return lowerError("Concat: axis out of range for " + valueString(first));
    const auto axis = static_cast<std::size_t>(*a);
    Dims dims = first.dims;
    dims[axis] = 0;
    for (const DeviceValue* t : c.in) {
        bool fits = t->dims.size() == first.dims.size() && t->dtype == first.dtype;
        for (std::size_t d = 0; fits && d < t->dims.size(); ++d)
            fits = d == axis || t->dims[d] == first.dims[d];
        if (!fits)
            return lowerError("Concat: " + valueString(*t) + " does not fit " + valueString(first) + " on axis "
                              + std::to_string(axis));
        dims[axis] += t->dims[axis];
    }
    if (auto r = checkOut(c, dims, first.dtype, "Concat"); !r)
        return r;
    // Each input is a strided copy into its slab of the output.
    const Dims outStrides = contiguousStrides(dims);
    std::vector<std::pair<const void*, StridedCopyArgs>> copies;
    std::int64_t offset = 0;
    for (const DeviceValue* t : c.in) {
        StridedCopyArgs args;
        if (!makeStridedCopy(t->dims, contiguousStrides(t->dims), outStrides, 0, offset * outStrides[axis],
                             elementSize(first), args))
            return lowerError("Concat: rank above " + std::to_string(kMaxRank));
        copies.emplace_back(t->ptr, args);
        offset += t->dims[axis];
    }
    void* out = c.out.ptr;
    return Launch([=](cudaStream_t s) {
        for (const auto& [src, args] : copies)
            launchStridedCopy(src, out, args, s);
    });
}

LowerResult lowerExpand(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    auto strides = broadcastStrides(x.dims, c.out.dims);
    if (!strides || x.dtype != c.out.dtype)
        return lowerError("Expand: " + valueString(x) + " does not broadcast to " + valueString(c.out));
    StridedCopyArgs a;
    if (!makeStridedCopy(c.out.dims, *strides, contiguousStrides(c.out.dims), 0, 0, elementSize(x), a))
        return lowerError("Expand: rank above " + std::to_string(kMaxRank));
    return copyLaunch(x.ptr, c.out.ptr, a);
}

LowerResult lowerGather(LowerContext& c)
{
    const DeviceValue &x = *c.in[0], &idx = *c.in[1];
    if (idx.dtype != DType::I64 && idx.dtype != DType::I32)
        return lowerError("Gather: indices must be I64 or I32, got " + valueString(idx));
    auto a = normalizeAxis(c.attrs().intOr("axis", 0), x.dims.size());
    if (!a)
        return lowerError("Gather: axis out of range for " + valueString(x));
    const auto axis = static_cast<std::size_t>(*a);
    Dims dims(x.dims.begin(), x.dims.begin() + static_cast<std::ptrdiff_t>(axis));
    dims.insert(dims.end(), idx.dims.begin(), idx.dims.end());
    dims.insert(dims.end(), x.dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.dims.end());
    if (auto r = checkOut(c, dims, x.dtype, "Gather"); !r)
        return r;
    const std::int64_t outer = product(x.dims, 0, axis), inner = product(x.dims, axis + 1);
    const std::int64_t count = static_cast<std::int64_t>(idx.elements()), axisDim = x.dims[axis];
    const int es = elementSize(x);
    if (es != 1 && es != 2 && es != 4 && es != 8)
        return lowerError("Gather: element type " + valueString(x) + " is not supported on the CUDA backend");
    const void *px = x.ptr, *pi = idx.ptr;
    void* po = c.out.ptr;
    const bool i64 = idx.dtype == DType::I64;
    return Launch([=](cudaStream_t s) { launchGather(px, pi, i64, po, outer, count, axisDim, inner, es, s); });
}

LowerResult lowerGatherElements(LowerContext& c)
{
    const DeviceValue &x = *c.in[0], &idx = *c.in[1];
    if (idx.dtype != DType::I64 && idx.dtype != DType::I32)
        return lowerError("GatherElements: indices must be I64 or I32, got " + valueString(idx));
    auto a = normalizeAxis(c.attrs().intOr("axis", 0), x.dims.size());
    if (!a || idx.dims.size() != x.dims.size())
        return lowerError("GatherElements: axis or rank does not fit " + valueString(x) + " and " + valueString(idx));
    if (auto r = checkOut(c, idx.dims, x.dtype, "GatherElements"); !r)
        return r;
    if (x.dims.size() > static_cast<std::size_t>(kMaxRank) || !supportedElementSize(elementSize(x)))
        return lowerError("GatherElements: " + valueString(x) + " is not supported on the CUDA backend");
    GatherElementsArgs args;
    args.rank = static_cast<int>(x.dims.size());
    args.axis = static_cast<int>(*a);
    const Dims xStrides = contiguousStrides(x.dims);
    for (std::size_t d = 0; d < x.dims.size(); ++d) {
        args.dims[d] = idx.dims[d];
        args.xStrides[d] = xStrides[d];
    }
    args.axisDim = x.dims[static_cast<std::size_t>(*a)];
    args.count = product(idx.dims);
    args.indices64 = idx.dtype == DType::I64;
    args.elementSize = elementSize(x);
    const void *px = x.ptr, *pi = idx.ptr;
    void* po = c.out.ptr;
    return Launch([=](cudaStream_t s) { launchGatherElements(px, pi, po, args, s); });
}

LowerResult lowerGatherND(LowerContext& c)
{
    const DeviceValue &x = *c.in[0], &idx = *c.in[1];
    if (idx.dtype != DType::I64 && idx.dtype != DType::I32)
        return lowerError("GatherND: indices must be I64 or I32, got " + valueString(idx));
    const auto batch = static_cast<std::size_t>(std::max<std::int64_t>(0, c.attrs().intOr("batch_dims", 0)));
    const std::int64_t k = idx.dims.empty() ? -1 : idx.dims.back();
    if (k < 0 || k > kMaxRank || batch + static_cast<std::size_t>(k) > x.dims.size() || batch >= idx.dims.size())
        return lowerError("GatherND: index tuples of " + std::to_string(k) + " after " + std::to_string(batch)
                          + " batch dims for " + valueString(x));
    const auto kk = static_cast<std::size_t>(k);
    Dims dims(idx.dims.begin(), idx.dims.end() - 1);
    dims.insert(dims.end(), x.dims.begin() + static_cast<std::ptrdiff_t>(batch + kk), x.dims.end());
    if (auto r = checkOut(c, dims, x.dtype, "GatherND"); !r)
        return r;
    if (!supportedElementSize(elementSize(x)))
        return lowerError("GatherND: " + valueString(x) + " is not supported on the CUDA backend");
    GatherNDArgs a;
    a.k = static_cast<int>(k);
    const Dims strides = contiguousStrides(x.dims);
    for (std::size_t d = 0; d < kk; ++d) {
        a.dims[d] = x.dims[batch + d];
        a.strides[d] = strides[batch + d];
    }
    a.batchStride = batch ? strides[batch - 1] : 0;
    a.perBatch = product(idx.dims, batch, idx.dims.size() - 1);
    a.slice = product(x.dims, batch + kk);
    a.count = product(dims);
    a.indices64 = idx.dtype == DType::I64;
    a.elementSize = elementSize(x);
    if (a.slice == 0 || a.perBatch == 0)
        a.count = 0;
    const void *px = x.ptr, *pi = idx.ptr;
    void* po = c.out.ptr;
    return Launch([=](cudaStream_t s) { launchGatherND(px, pi, po, a, s); });
}

LowerResult lowerPad(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    const std::size_t rank = x.dims.size();
    if (c.attrs().has("axes") || c.attrs().has("axes_input")) // the import writes out constant axes where it can
        return lowerError("Pad: pads for some axes only (opset 18's axes) run on the CPU backend only");
    auto pads = c.intsFromAttrOrConstant("pads", 1);
    if (!pads || pads->size() != 2 * rank)
        return lowerError("Pad: pads must be an attribute or a constant input holding 2 x rank values for "
                          + valueString(x));
    const std::string mode = c.attrs().stringOr("mode", "constant");
    PadArgs a;
    if (mode == "constant")
        a.mode = PadMode::Constant;
    else if (mode == "edge")
        a.mode = PadMode::Edge;
    else if (mode == "reflect")
        a.mode = PadMode::Reflect;
    else
        return lowerError("Pad: unknown mode '" + mode + "'");
    Dims dims(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        dims[d] = x.dims[d] + (*pads)[d] + (*pads)[d + rank];
        if (dims[d] < 0 || (a.mode != PadMode::Constant && x.dims[d] == 0 && dims[d] > 0))
            return lowerError("Pad: pads " + dimsString(*pads) + " do not fit " + valueString(x));
        a.padBegin[d] = (*pads)[d];
    }
    // The fill value as the CPU backend takes it: the attribute, else a one-element input 2, else 0. The input is
    // read on the device; the attribute is converted here (F32, F64 and I64 as the CPU does, others stay 0).
    const double value = c.attrs().doubleOr("value", 0.0);
    if (!c.attrs().has("value") && c.in.size() > 2 && c.in[2]->elements() == 1) {
        if (c.in[2]->dtype != x.dtype)
            return lowerError("Pad: value " + valueString(*c.in[2]) + " must have the input's dtype");
        a.fillPtr = c.in[2]->ptr;
    } else if (x.dtype == DType::F32) {
        const auto f = static_cast<float>(value);
        std::memcpy(&a.fill, &f, 4);
    } else if (x.dtype == DType::F16 || x.dtype == DType::BF16) {
        const float f = static_cast<float>(value);
        const std::uint16_t bits = x.dtype == DType::F16 ? floatToHalf(f) : floatToBf16(f);
        std::memcpy(&a.fill, &bits, 2);
    } else if (x.dtype == DType::F64) {
        std::memcpy(&a.fill, &value, 8);
    } else if (x.dtype == DType::I64) {
        const auto i = static_cast<std::int64_t>(value);
        std::memcpy(&a.fill, &i, 8);
    }
    return padLaunch(c, dims, a, "Pad");
}

LowerResult lowerTile(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    auto repeats = c.intsFromAttrOrConstant("repeats", 1);
    if (!repeats || repeats->size() != x.dims.size())
        return lowerError("Tile: repeats must be an attribute or a constant input with one entry per dim of "
                          + valueString(x));
    Dims dims = x.dims;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        if ((*repeats)[d] < 0)
            return lowerError("Tile: negative repeat");
        dims[d] *= (*repeats)[d];
    }
    PadArgs a;
    a.mode = PadMode::Wrap;
    return padLaunch(c, dims, a, "Tile");
}

} // namespace costscope::cuda
