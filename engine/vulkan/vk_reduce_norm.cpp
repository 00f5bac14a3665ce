// SPDX-License-Identifier: MIT
// Reduce (reduce.comp), Softmax/LogSoftmax (softmax.comp) and the normalisations (norm.comp), over F32.
#include "vulkan/vk_lowering.h"

#include <algorithm>

namespace costscope::vk {

namespace {
LowerStatus requireF32(const Value& v, const std::string& what)
{
    if (v.dtype != DType::F32)
        return lowerError(what + " needs F32, got " + std::string(dtypeName(v.dtype)));
    return true;
}

LowerStatus softmaxImpl(Lowering& l, bool logarithm)
{
    const Value& x = *l.in[0];
    if (auto s = requireF32(x, "Softmax"); !s)
        return s;
    auto a = normalizeAxis(l.attrs().intOr("axis", -1), x.dims.size());
    if (!a)
        return lowerError("Softmax: axis out of range for " + dimsString(x.dims));
    const auto axis = static_cast<std::size_t>(*a);
    l.out = {x.dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::int64_t inner = product(x.dims, axis + 1, x.dims.size());
    const std::int64_t rows = product(x.dims, 0, axis) * inner;
    if (rows && x.dims[axis])
        l.dispatches.push_back({"softmax", {i32(rows), i32(x.dims[axis]), i32(inner), logarithm ? 1 : 0},
                                {x.slot, dst}, linearGroups(static_cast<std::uint64_t>(rows))});
    return true;
}

// norm.comp with bindings x, scale, bias, mean, var, out.
void emitNorm(Lowering& l, std::uint64_t threads, std::vector<std::int32_t> params, std::vector<std::size_t> slots)
{
    slots.resize(5, kNoSlot);
    slots.push_back(l.out.slot);
    if (threads)
        l.dispatches.push_back({"norm", std::move(params), std::move(slots), linearGroups(threads)});
}

LowerStatus checkParams(const Lowering& l, std::size_t from, std::int64_t n, const char* op)
{
    for (std::size_t i = from; i < l.in.size(); ++i)
        if (l.in[i]->dtype != DType::F32 || static_cast<std::int64_t>(elementCount(l.in[i]->dims)) != n)
            return lowerError(std::string(op) + ": parameter " + dimsString(l.in[i]->dims) + " must hold "
                              + std::to_string(n) + " F32 values");
    return true;
}

LowerStatus rowNorm(Lowering& l, int mode, double eps, const char* op)
{
    const Value& x = *l.in[0];
    if (auto s = requireF32(x, op); !s)
        return s;
    auto a = normalizeAxis(l.attrs().intOr("axis", -1), x.dims.size());
    if (!a)
        return lowerError(std::string(op) + ": axis out of range for " + dimsString(x.dims));
    const std::int64_t n = product(x.dims, static_cast<std::size_t>(*a), x.dims.size());
    if (auto s = checkParams(l, 1, n, op); !s)
        return s;
    l.out = {x.dims, DType::F32, kNoSlot};
    l.outputSlot();
    const std::int64_t rows = n ? static_cast<std::int64_t>(elementCount(x.dims)) / n : 0;
    const bool scale = l.in.size() > 1, bias = mode == 0 && l.in.size() > 2;
    emitNorm(l, static_cast<std::uint64_t>(rows), {i32(rows), i32(n), floatBits(eps), scale, bias, mode, 1, 1},
             {x.slot, scale ? l.in[1]->slot : kNoSlot, bias ? l.in[2]->slot : kNoSlot});
    return true;
}
} // namespace

LowerStatus lowerReduce(Lowering& l)
{
    const Value& x = *l.in[0];
    if (auto s = requireF32(x, "Reduce"); !s)
        return s;
    static const std::vector<std::string> kinds = {"Sum", "Mean", "Max", "Min", "Prod"};
    const auto kind = std::find(kinds.begin(), kinds.end(), l.node.op.subOp());
    if (kind == kinds.end())
        return lowerError("unsupported Reduce op '" + l.node.op.subOp() + "'");
    const bool keep = l.attrs().getBool("keep_dim").value_or(l.attrs().intOr("keepdims", 1) != 0);
    const std::size_t rank = x.dims.size();
    std::vector<bool> reduced(rank, false);
    auto axes = intsFromAttrOrConstant(l, "axes", 1);
    if (!axes && l.in.size() > 1)
        return lowerError("Reduce: the axes input must be constant on Vulkan");
    if (!axes || axes->empty())
        std::fill(reduced.begin(), reduced.end(), true);
    else
        for (std::int64_t ax : *axes) {
            auto n = normalizeAxis(ax, rank);
            if (!n)
                return lowerError("Reduce: axis " + std::to_string(ax) + " out of range for " + dimsString(x.dims));
            reduced[static_cast<std::size_t>(*n)] = true;
        }
    Dims dims;
    const Dims xs = contiguousStrides(x.dims);
    std::vector<std::int32_t> iter, red;
    std::int64_t count = 1;
    for (std::size_t d = 0; d < rank; ++d) {
        if (!reduced[d])
            dims.push_back(x.dims[d]);
        else if (keep)
            dims.push_back(1);
        iter.insert(iter.end(), {i32(reduced[d] ? 1 : x.dims[d]), i32(xs[d])});
        if (reduced[d]) {
            red.insert(red.end(), {i32(x.dims[d]), i32(xs[d])});
            count *= x.dims[d];
        }
    }
    l.out = {dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t n = elementCount(dims);
    std::vector<std::int32_t> p(24 + 2 * kMaxRank, 0);
    p[0] = i32(n);
    p[1] = i32(rank);
    p[2] = static_cast<std::int32_t>(kind - kinds.begin());
    p[3] = i32(count);
    p[4] = i32(red.size() / 2);
    std::copy(iter.begin(), iter.end(), p.begin() + 8);
    std::copy(red.begin(), red.end(), p.begin() + 24);
    if (n)
        l.dispatches.push_back({"reduce", std::move(p), {x.slot, dst}, linearGroups(n)});
    return true;
}

LowerStatus lowerSoftmax(Lowering& l)
{
    return softmaxImpl(l, false);
}

LowerStatus lowerLogSoftmax(Lowering& l)
{
    return softmaxImpl(l, true);
}

LowerStatus lowerLayerNorm(Lowering& l)
{
    return rowNorm(l, 0, l.attrs().doubleOr("eps", 1e-5), "LayerNorm");
}

LowerStatus lowerRmsNorm(Lowering& l)
{
    return rowNorm(l, 1, l.attrs().doubleOr("eps", 1e-6), "RmsNorm");
}

LowerStatus lowerInstanceNorm(Lowering& l)
{
    const Value& x = *l.in[0];
    if (auto s = requireF32(x, "InstanceNorm"); !s)
        return s;
    if (x.dims.size() < 2 || l.in.size() < 3)
        return lowerError("InstanceNorm: needs input [N, C, ...], scale and bias");
    const std::int64_t c = x.dims[1];
    if (auto s = checkParams(l, 1, c, "InstanceNorm"); !s)
        return s;
    l.out = {x.dims, DType::F32, kNoSlot};
    l.outputSlot();
    const std::int64_t n = product(x.dims, 2, x.dims.size()), rows = x.dims[0] * c;
    emitNorm(l, static_cast<std::uint64_t>(rows),
             {i32(rows), i32(n), floatBits(l.attrs().doubleOr("eps", 1e-5)), 1, 1, 2, i32(c), 1},
             {x.slot, l.in[1]->slot, l.in[2]->slot});
    return true;
}

LowerStatus lowerBatchNorm(Lowering& l)
{
    const Value& x = *l.in[0];
    if (auto s = requireF32(x, "BatchNorm"); !s)
        return s;
    if (x.dims.size() < 2 || l.in.size() < 5)
        return lowerError("BatchNorm: needs input [N, C, ...], scale, bias, mean and var");
    const std::int64_t c = x.dims[1];
    if (auto s = checkParams(l, 1, c, "BatchNorm"); !s)
        return s;
    l.out = {x.dims, DType::F32, kNoSlot};
    l.outputSlot();
    const double eps = l.attrs().doubleOr("eps", l.attrs().doubleOr("epsilon", 1e-5));
    const std::uint64_t n = elementCount(x.dims);
    emitNorm(l, n, {i32(n), 0, floatBits(eps), 1, 1, 3, i32(c), i32(product(x.dims, 2, x.dims.size()))},
             {x.slot, l.in[1]->slot, l.in[2]->slot, l.in[3]->slot, l.in[4]->slot});
    return true;
}

LowerStatus lowerLrn(Lowering& l)
{
    const Value& x = *l.in[0];
    if (auto s = requireF32(x, "Lrn"); !s)
        return s;
    if (x.dims.size() < 2)
        return lowerError("Lrn: input " + dimsString(x.dims) + " needs [N, C, ...]");
    const Attrs& a = l.attrs();
    l.out = {x.dims, DType::F32, kNoSlot};
    l.outputSlot();
    const std::uint64_t n = elementCount(x.dims);
    emitNorm(l, n,
             {i32(n), 0, 0, 0, 0, 4, i32(x.dims[1]), i32(product(x.dims, 2, x.dims.size())), i32(a.intOr("size", 5)),
              floatBits(a.doubleOr("alpha", 1e-4)), floatBits(a.doubleOr("beta", 0.75)), floatBits(a.doubleOr("bias", 1.0))},
             {x.slot});
    return true;
}

} // namespace costscope::vk
