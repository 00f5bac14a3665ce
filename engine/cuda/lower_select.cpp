// SPDX-License-Identifier: MIT
// Compare, Where and Clip over any numeric dtype, with the CPU backend's semantics.
#include "cuda/cuda_lower.h"

#include <limits>

namespace costscope::cuda {

namespace {
std::optional<CompareOp> compareOpFor(const std::string& s)
{
    static const std::pair<const char*, CompareOp> names[] = {
        {"Equal", CompareOp::Eq}, {"Eq", CompareOp::Eq},      {"Ne", CompareOp::Ne},
        {"NotEqual", CompareOp::Ne}, {"Less", CompareOp::Lt}, {"Lt", CompareOp::Lt},
        {"LessOrEqual", CompareOp::Le}, {"Le", CompareOp::Le}, {"Greater", CompareOp::Gt},
        {"Gt", CompareOp::Gt},      {"GreaterOrEqual", CompareOp::Ge}, {"Ge", CompareOp::Ge}};
    for (const auto& [n, op] : names)
        if (s == n)
            return op;
    return std::nullopt;
}

// A Clip bound: the attribute, else a one-element input (read on the device when the graph runs), else dflt.
void clipBound(const LowerContext& c, const char* key, std::size_t index, double dflt, double& value,
               const void*& ptr)
{
    value = dflt;
    ptr = nullptr;
    if (auto v = c.attrs().getDouble(key))
        value = *v;
    else if (index < c.in.size() && c.in[index]->elements() == 1)
        ptr = c.in[index]->ptr;
}
} // namespace

LowerResult lowerCompare(LowerContext& c)
{
    const std::string sub = c.node.op.subOp();
    auto op = compareOpFor(sub);
    if (!op)
        return lowerError("the CUDA backend has no Compare op '" + sub + "'");
    const DeviceValue &a = *c.in[0], &b = *c.in[1];
    const auto type = elemTypeOf(a.dtype);
    if (!type || b.dtype != a.dtype || c.out.dtype != DType::Bool)
        return lowerError("Compare: operands " + valueString(a) + " and " + valueString(b)
                          + " must share a numeric dtype, with a Bool result, got " + valueString(c.out));
    BinaryArgs args;
    if (!makeBroadcastArgs(a.dims, b.dims, c.out.dims, args))
        return lowerError("Compare: " + valueString(a) + " and " + valueString(b) + " do not broadcast to "
                          + valueString(c.out));
    const void *pa = a.ptr, *pb = b.ptr;
    auto* po = static_cast<std::uint8_t*>(c.out.ptr);
    const ElemType t = *type;
    const CompareOp cmp = *op;
    return Launch([=](cudaStream_t s) { launchCompare(pa, pb, po, t, cmp, args, s); });
}

LowerResult lowerWhere(LowerContext& c)
{
    const DeviceValue &cond = *c.in[0], &x = *c.in[1], &y = *c.in[2];
    if (byteSize(cond.dtype) != 1)
        return lowerError("Where: the condition must be Bool, got " + valueString(cond));
    const std::size_t es = byteSize(x.dtype);
    if (y.dtype != x.dtype || c.out.dtype != x.dtype || (es != 1 && es != 2 && es != 4 && es != 8))
        return lowerError("Where: " + valueString(x) + " and " + valueString(y) + " must share the result's dtype "
                          + valueString(c.out) + " (1, 2, 4 or 8 bytes)");
    auto cs = broadcastStrides(cond.dims, c.out.dims), xs = broadcastStrides(x.dims, c.out.dims),
         ys = broadcastStrides(y.dims, c.out.dims);
    if (!cs || !xs || !ys || c.out.dims.size() > static_cast<std::size_t>(kMaxRank))
        return lowerError("Where: " + valueString(cond) + ", " + valueString(x) + " and " + valueString(y)
                          + " do not broadcast to " + valueString(c.out));
    WhereArgs a;
    a.rank = static_cast<int>(c.out.dims.size());
    for (std::size_t d = 0; d < c.out.dims.size(); ++d) {
        a.dims[d] = c.out.dims[d];
        a.condStrides[d] = (*cs)[d];
        a.xStrides[d] = (*xs)[d];
        a.yStrides[d] = (*ys)[d];
    }
    a.count = product(c.out.dims);
    a.elementSize = static_cast<int>(es);
    const auto* pc = static_cast<const std::uint8_t*>(cond.ptr);
    const void *px = x.ptr, *py = y.ptr;
    void* po = c.out.ptr;
    return Launch([=](cudaStream_t s) { launchWhere(pc, px, py, po, a, s); });
}

LowerResult lowerClip(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    const auto type = elemTypeOf(x.dtype);
    if (!type || *type == ElemType::U8 || x.dims != c.out.dims || x.dtype != c.out.dtype)
        return lowerError("Clip takes F32, F64, I64 or I32 and keeps the input's shape, got " + valueString(x)
                          + " -> " + valueString(c.out));
    for (std::size_t i = 1; i < c.in.size(); ++i)
        if (c.in[i]->elements() == 1 && c.in[i]->dtype != x.dtype)
            return lowerError("Clip: bound " + valueString(*c.in[i]) + " must have the input's dtype");
    ClipBounds b;
    clipBound(c, "min", 1, -std::numeric_limits<double>::infinity(), b.lo, b.loPtr);
    clipBound(c, "max", 2, std::numeric_limits<double>::infinity(), b.hi, b.hiPtr);
    const void* px = x.ptr;
    void* py = c.out.ptr;
    const auto count = static_cast<std::int64_t>(x.elements());
    const ElemType t = *type;
    return Launch([=](cudaStream_t s) { launchClip(px, py, t, count, b, s); });
}

} // namespace costscope::cuda
