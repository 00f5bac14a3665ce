// SPDX-License-Identifier: MIT
// Binary, Compare, Where and Sum: numpy-broadcast element-wise ops over F32, F64, I64, I32, U8 and Bool (the plan
// converts other dtypes, see precision.h). Logical ops (And, Or, Xor) read any non-zero as true; bitwise ones and
// BitShift take integers only.
#include "cpu/broadcast.h"

#include <cmath>
#include <cstring>
#include <type_traits>

namespace costscope::cpu {

namespace {
enum class BinOp {
    Add, Sub, Mul, Div, Pow, Max, Min, Mod, FMod, PRelu, And, Or, Xor, BitAnd, BitOr, BitXor, ShiftLeft, ShiftRight
};
enum class CmpOp { Eq, Ne, Lt, Le, Gt, Ge };

std::optional<BinOp> parseBinOp(const std::string& s)
{
    static const std::pair<const char*, BinOp> names[] = {
        {"Add", BinOp::Add}, {"Sub", BinOp::Sub}, {"Mul", BinOp::Mul},  {"Div", BinOp::Div},        {"Pow", BinOp::Pow},
        {"Max", BinOp::Max}, {"Min", BinOp::Min}, {"Mod", BinOp::Mod}, {"PRelu", BinOp::PRelu},
        {"And", BinOp::And}, {"Or", BinOp::Or},   {"Xor", BinOp::Xor}, {"BitwiseAnd", BinOp::BitAnd},
        {"BitwiseOr", BinOp::BitOr}, {"BitwiseXor", BinOp::BitXor}};
    for (const auto& [n, op] : names)
        if (s == n)
            return op;
    return std::nullopt;
}

std::optional<CmpOp> parseCmpOp(const std::string& s)
{
    static const std::pair<const char*, CmpOp> names[] = {
        {"Equal", CmpOp::Eq}, {"Eq", CmpOp::Eq},   {"Ne", CmpOp::Ne},          {"NotEqual", CmpOp::Ne},
        {"Less", CmpOp::Lt},  {"Lt", CmpOp::Lt},   {"LessOrEqual", CmpOp::Le}, {"Le", CmpOp::Le},
        {"Greater", CmpOp::Gt}, {"Gt", CmpOp::Gt}, {"GreaterOrEqual", CmpOp::Ge}, {"Ge", CmpOp::Ge}};
    for (const auto& [n, op] : names)
        if (s == n)
            return op;
    return std::nullopt;
}

template <class T>
bool isNegative(T a)
{
    if constexpr (std::is_unsigned_v<T>)
        return false;
    else
        return a < T(0);
}

// ONNX Mod with fmod=1: C's remainder, with the sign of the dividend.
template <class T>
T truncatedModulo(T a, T b)
{
    if constexpr (std::is_floating_point_v<T>)
        return std::fmod(a, b);
    else
        return b == 0 ? T(0) : T(a % b); // integer division by zero is undefined in ONNX; avoid the trap
}

// ONNX Mod with fmod=0: the sign of the divisor, as numpy's mod (for floats too).
template <class T>
T modulo(T a, T b)
{
    const T r = truncatedModulo(a, b);
    return (r != 0 && isNegative(r) != isNegative(b)) ? T(r + b) : r;
}

template <class T>
T divide(T a, T b)
{
    if constexpr (std::is_floating_point_v<T>)
        return a / b;
    else
        return b == 0 ? 0 : a / b;
}

template <class T, class F>
void binaryLoop(ThreadPool& pool, const Broadcast& b, const T* x, const T* y, T* o, F f)
{
    forEachRun(pool, b, [&](std::int64_t start, std::int64_t n, const std::int64_t* off, const std::int64_t* st) {
        const T* px = x + off[0];
        const T* py = y + off[1];
        T* po = o + start;
        if (st[0] == 1 && st[1] == 1)
            for (std::int64_t i = 0; i < n; ++i)
                po[i] = f(px[i], py[i]);
        else if (st[0] == 1 && st[1] == 0)
            for (std::int64_t i = 0; i < n; ++i)
                po[i] = f(px[i], *py);
        else
            for (std::int64_t i = 0; i < n; ++i)
                po[i] = f(px[i * st[0]], py[i * st[1]]);
    });
}

bool isBitwise(BinOp op)
{
    return op == BinOp::BitAnd || op == BinOp::BitOr || op == BinOp::BitXor || op == BinOp::ShiftLeft
        || op == BinOp::ShiftRight;
}

// ONNX's BitShift (its reference, numpy): a shift by a negative amount or by `width` (the bits of the graph's
// dtype, which may be narrower than T when the plan widened it) or more gives 0, or -1 shifting a negative value
// right; signed values shift right arithmetically.
template <class T>
T shifted(T a, T by, bool left, int width)
{
    using U = std::make_unsigned_t<T>;
    if (by < 0 || static_cast<std::uint64_t>(by) >= static_cast<std::uint64_t>(width))
        return !left && isNegative(a) ? T(-1) : T(0);
    return left ? T(U(a) << by) : T(a >> by);
}

template <class T>
void bitwiseTyped(ThreadPool& pool, BinOp op, const Broadcast& b, const T* x, const T* y, T* o, int width)
{
    switch (op) {
    case BinOp::BitAnd: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a & c); });
    case BinOp::BitOr: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a | c); });
    case BinOp::BitXor: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a ^ c); });
    case BinOp::ShiftLeft: return binaryLoop(pool, b, x, y, o, [&](T a, T c) { return shifted(a, c, true, width); });
    case BinOp::ShiftRight: return binaryLoop(pool, b, x, y, o, [&](T a, T c) { return shifted(a, c, false, width); });
    default: return;
    }
}

// `width`: the bits of the graph's integer dtype, for BitShift (0: T's own).
template <class T>
void binaryTyped(ThreadPool& pool, BinOp op, const Broadcast& b, const T* x, const T* y, T* o, int width = 0)
{
    switch (op) {
    case BinOp::And: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a != T(0) && c != T(0)); });
    case BinOp::Or: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a != T(0) || c != T(0)); });
    case BinOp::Xor: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T((a != T(0)) != (c != T(0))); });
    case BinOp::BitAnd:
    case BinOp::BitOr:
    case BinOp::BitXor:
    case BinOp::ShiftLeft:
    case BinOp::ShiftRight:
        if constexpr (std::is_integral_v<T>)
            bitwiseTyped(pool, op, b, x, y, o, width > 0 ? width : int(sizeof(T) * 8));
        return;
    case BinOp::Add: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a + c); });
    case BinOp::Sub: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a - c); });
    case BinOp::Mul: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(a * c); });
    case BinOp::Div: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return divide(a, c); });
    case BinOp::Pow: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return T(std::pow(a, c)); });
    case BinOp::Max: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return a > c ? a : c; });
    case BinOp::Min: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return a < c ? a : c; });
    case BinOp::Mod: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return modulo(a, c); });
    case BinOp::FMod: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return truncatedModulo(a, c); });
    case BinOp::PRelu: return binaryLoop(pool, b, x, y, o, [](T a, T c) { return isNegative(a) ? T(a * c) : a; });
    }
}

template <class T>
bool compare(CmpOp op, T a, T b)
{
    switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
    }
    return false;
}

template <class T>
void compareTyped(ThreadPool& pool, CmpOp op, const Broadcast& b, const T* x, const T* y, std::uint8_t* o)
{
    forEachRun(pool, b, [&](std::int64_t start, std::int64_t n, const std::int64_t* off, const std::int64_t* st) {
        for (std::int64_t i = 0; i < n; ++i)
            o[start + i] = compare(op, x[off[0] + i * st[0]], y[off[1] + i * st[1]]) ? 1 : 0;
    });
}

// Calls f(T{}) with T the C++ type of a numeric dtype the element-wise kernels support.
template <class F>
bool dispatchNumeric(DType t, F f)
{
    switch (t) {
    case DType::F32: f(float{}); return true;
    case DType::F64: f(double{}); return true;
    case DType::I64: f(std::int64_t{}); return true;
    case DType::I32: f(std::int32_t{}); return true;
    case DType::U8:
    case DType::Bool: f(std::uint8_t{}); return true;
    default: return false;
    }
}

Result<Broadcast> broadcastOf(const Inputs& in)
{
    std::vector<const Dims*> dims;
    for (const HostTensor* t : in)
        dims.push_back(&t->dims());
    auto b = makeBroadcast(dims);
    if (!b) {
        std::string s = "inputs do not broadcast:";
        for (const HostTensor* t : in)
            s += ' ' + describe(*t);
        return Diagnostic::error(s);
    }
    return *b;
}

KernelStatus sameDType(const Inputs& in, std::size_t from)
{
    for (std::size_t i = from + 1; i < in.size(); ++i)
        if (in[i]->dtype() != in[from]->dtype())
            return fail("input dtypes differ: " + describe(*in[from]) + " and " + describe(*in[i]));
    return ok();
}
} // namespace

KernelStatus runBinary(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    auto op = parseBinOp(ctx.node.op.subOp());
    if (op == BinOp::Mod && ctx.attrs().getBool("fmod").value_or(false))
        op = BinOp::FMod;
    if (ctx.node.op.subOp() == "BitShift")
        op = ctx.attrs().stringOr("direction", "LEFT") == "RIGHT" ? BinOp::ShiftRight : BinOp::ShiftLeft;
    if (!op)
        return fail("unsupported Binary op '" + ctx.node.op.subOp() + "'");
    if (auto s = sameDType(in, 0); !s)
        return s;
    if (isBitwise(*op) && isFloating(in[0]->dtype()))
        return fail("Binary." + ctx.node.op.subOp() + " takes integers, got " + describe(*in[0]));
    Inputs operands = in;
    HostTensor perChannel;
    if (*op == BinOp::PRelu && !makeBroadcast({&in[0]->dims(), &in[1]->dims()}) && in[1]->rank() == 1
        && in[0]->rank() >= 2 && in[1]->dim(0) == in[0]->dim(1)) {
        // Opset 6 PRelu: a 1-D slope is per channel (axis 1), not numpy-broadcast on the last axis.
        perChannel = *in[1];
        Dims dims(in[0]->rank() - 1, 1);
        dims[0] = in[1]->dim(0);
        perChannel.setDims(dims);
        operands[1] = &perChannel;
    }
    auto b = broadcastOf(operands);
    if (!b)
        return b.error();
    out.reset(b->shape, in[0]->dtype());
    const bool known = dispatchNumeric(in[0]->dtype(), [&](auto zero) {
        using T = decltype(zero);
        const DType graphType = ctx.node.shape.dtype;
        const int width = isFloating(graphType) || graphType == DType::Bool ? 0 : int(byteSize(graphType) * 8);
        binaryTyped<T>(ctx.pool, *op, *b, in[0]->values<T>().data(), operands[1]->values<T>().data(),
                       out.values<T>().data(), std::min<int>(width, int(sizeof(T) * 8)));
    });
    if (!known)
        return fail("Binary does not support " + std::string(dtypeName(in[0]->dtype())));
    return ok();
}

KernelStatus runCompare(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    auto op = parseCmpOp(ctx.node.op.subOp());
    if (!op)
        return fail("unsupported Compare op '" + ctx.node.op.subOp() + "'");
    if (auto s = sameDType(in, 0); !s)
        return s;
    auto b = broadcastOf(in);
    if (!b)
        return b.error();
    out.reset(b->shape, DType::Bool);
    const bool known = dispatchNumeric(in[0]->dtype(), [&](auto zero) {
        using T = decltype(zero);
        compareTyped<T>(ctx.pool, *op, *b, in[0]->values<T>().data(), in[1]->values<T>().data(),
                        out.values<std::uint8_t>().data());
    });
    if (!known)
        return fail("Compare does not support " + std::string(dtypeName(in[0]->dtype())));
    return ok();
}

KernelStatus runWhere(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in[0]->elementSize() != 1)
        return fail("Where: the condition must be Bool, got " + describe(*in[0]));
    if (auto s = sameDType(in, 1); !s)
        return s;
    auto b = broadcastOf(in);
    if (!b)
        return b.error();
    out.reset(b->shape, in[1]->dtype());
    const std::size_t es = out.elementSize();
    const auto* c = reinterpret_cast<const std::uint8_t*>(in[0]->bytes());
    const std::byte* x = in[1]->bytes();
    const std::byte* y = in[2]->bytes();
    std::byte* o = out.bytes();
    // Numeric types as a typed select; a memcpy of a run-time size per element ran at ~4 ns an element.
    const bool typed = dispatchNumeric(out.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* xs = in[1]->values<T>().data();
        const T* ys = in[2]->values<T>().data();
        T* os = out.values<T>().data();
        forEachRun(ctx.pool, *b, [&](std::int64_t start, std::int64_t n, const std::int64_t* off, const std::int64_t* st) {
            for (std::int64_t i = 0; i < n; ++i)
                os[start + i] = c[off[0] + i * st[0]] != 0 ? xs[off[1] + i * st[1]] : ys[off[2] + i * st[2]];
        });
    });
    if (typed)
        return ok();
    forEachRun(ctx.pool, *b, [&](std::int64_t start, std::int64_t n, const std::int64_t* off, const std::int64_t* st) {
        for (std::int64_t i = 0; i < n; ++i) {
            const bool pick = c[off[0] + i * st[0]] != 0;
            const std::byte* src = pick ? x + (off[1] + i * st[1]) * es : y + (off[2] + i * st[2]) * es;
            std::memcpy(o + (start + i) * es, src, es);
        }
    });
    return ok();
}

KernelStatus runSum(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (auto s = sameDType(in, 0); !s)
        return s;
    Dims shape;
    for (const HostTensor* t : in) {
        auto d = broadcastDims(shape, t->dims());
        if (!d)
            return fail("Sum: inputs do not broadcast: " + describe(*t) + " onto " + dimsString(shape));
        shape = *d;
    }
    out.reset(shape, in[0]->dtype());
    std::memset(out.bytes(), 0, out.byteSize());
    const bool known = dispatchNumeric(in[0]->dtype(), [&](auto zero) {
        using T = decltype(zero);
        for (const HostTensor* t : in) {
            auto b = makeBroadcast({&out.dims(), &t->dims()});
            T* o = out.values<T>().data();
            binaryTyped<T>(ctx.pool, BinOp::Add, *b, o, t->values<T>().data(), o);
        }
    });
    if (!known)
        return fail("Sum does not support " + std::string(dtypeName(in[0]->dtype())));
    return ok();
}

} // namespace costscope::cpu
