// SPDX-License-Identifier: MIT
// Element-wise ops: Binary, Compare, Where and Sum through binary.comp (numpy broadcasting); Activation, Clip
// and ConstantOfShape through unary.comp; Cast through cast.comp.
#include "vulkan/vk_lowering.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace costscope::vk {

namespace {
int indexIn(const std::vector<std::string_view>& names, const std::string& s)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == s)
            return static_cast<int>(i);
    return -1;
}

const std::vector<std::string_view> kBinaryOps = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mod", "PRelu"};
// Numbered as in act.glsl; Clip (28) is its own op kind.
const std::vector<std::string_view> kActivations = {
    "Relu",  "Sigmoid", "Tanh",  "Exp",  "Log",      "Sqrt",       "Rsqrt", "Neg",       "Abs",        "Erf",
    "Sign",  "Softplus", "Softsign", "IsNaN", "Reciprocal", "Floor", "Ceil", "Round", "Sin", "Cos",
    "Gelu",  "GeluApprox", "Silu", "LeakyRelu", "Elu", "Selu", "Shrink", "HardSigmoid"};
constexpr int kClip = 28;

int compareOp(const std::string& s)
{
    static const std::pair<const char*, int> names[] = {
        {"Equal", 0}, {"Eq", 0}, {"NotEqual", 1}, {"Ne", 1}, {"Less", 2}, {"Lt", 2}, {"LessOrEqual", 3},
        {"Le", 3}, {"Greater", 4}, {"Gt", 4}, {"GreaterOrEqual", 5}, {"Ge", 5}};
    for (const auto& [n, op] : names)
        if (s == n)
            return op;
    return -1;
}

// One binary.comp dispatch over operands broadcast to `out`.
void emitBinary(Lowering& l, int mode, int op, const std::vector<const Value*>& operands, std::size_t dst, const Dims& out)
{
    const std::uint64_t n = elementCount(out);
    std::vector<Dims> strides;
    for (const Value* v : operands)
        strides.push_back(broadcastStrides(v->dims, out));
    while (strides.size() < 3)
        strides.push_back(Dims(out.size(), 0));
    // Merge neighbouring dims every operand walks contiguously (same shapes collapse to one dim), so that the
    // shader's per-element index arithmetic stays short.
    Dims dims;
    std::vector<Dims> merged(3);
    for (std::size_t k = 0; k < out.size(); ++k) {
        bool join = !dims.empty();
        for (std::size_t o = 0; join && o < 3; ++o)
            join = merged[o].back() == strides[o][k] * out[k];
        if (join) {
            dims.back() *= out[k];
            for (std::size_t o = 0; o < 3; ++o)
                merged[o].back() = strides[o][k];
        } else {
            dims.push_back(out[k]);
            for (std::size_t o = 0; o < 3; ++o)
                merged[o].push_back(strides[o][k]);
        }
    }
    // F32 Binary goes four outputs to an invocation (binary.comp's kVec) when every operand either walks the
    // innermost dim contiguously, with all its strides multiples of 4 (aligned 16-byte loads), or broadcasts along it.
    bool vec4 = mode == 0 && !dims.empty() && dims.back() % 4 == 0;
    for (std::size_t o = 0; vec4 && o < operands.size(); ++o) {
        const Dims& s = merged[o];
        vec4 = s.back() == 0 || (s.back() == 1 && std::all_of(s.begin(), s.end() - 1, [](std::int64_t v) {
                   return v % 4 == 0;
               }));
    }
    const int vec = vec4 ? 4 : 1;
    Dispatch d{"binary", {i32(n), i32(dims.size()), mode, op}, {}, linearGroups((n + vec - 1) / vec)};
    d.constants = {mode, op, vec};
    for (std::size_t k = 0; k < dims.size(); ++k)
        d.params.insert(d.params.end(), {i32(dims[k]), i32(merged[0][k]), i32(merged[1][k]), i32(merged[2][k])});
    for (const Value* v : operands)
        d.slots.push_back(v->slot);
    while (d.slots.size() < 3)
        d.slots.push_back(kNoSlot);
    d.slots.push_back(dst);
    if (n)
        l.dispatches.push_back(std::move(d));
}

Result<Dims> broadcastAll(const std::vector<const Value*>& in, const char* op)
{
    Dims out;
    for (const Value* v : in) {
        auto b = broadcastDims(out, v->dims);
        if (!b)
            return lowerError(std::string(op) + ": inputs do not broadcast: " + dimsString(out) + " and "
                              + dimsString(v->dims));
        out = *b;
    }
    return out;
}

LowerStatus sameDType(const Lowering& l, std::size_t from, const char* op)
{
    for (std::size_t i = from + 1; i < l.in.size(); ++i)
        if (l.in[i]->dtype != l.in[from]->dtype)
            return lowerError(std::string(op) + ": input dtypes differ: " + std::string(dtypeName(l.in[from]->dtype))
                              + " and " + std::string(dtypeName(l.in[i]->dtype)));
    return true;
}

int castCode(DType t)
{
    switch (t) {
    case DType::F32: return 0;
    case DType::I32:
    case DType::U32: return 1;
    case DType::I64: return 2;
    case DType::Bool: return 3;
    case DType::F64: return 4;
    default: return -1;
    }
}

// A scalar bound from attribute `key`, else from constant input `index`.
std::optional<double> scalarBound(const Lowering& l, const char* key, std::size_t index, double dflt, bool& dynamic)
{
    if (auto v = l.attrs().getDouble(key))
        return *v;
    if (index < l.in.size()) {
        if (l.constants[index] && l.constants[index]->elements() == 1)
            return l.constants[index]->valueAsDouble(0);
        dynamic = true;
        return std::nullopt;
    }
    return dflt;
}
} // namespace

int activationIndex(const std::string& name)
{
    return indexIn(kActivations, name);
}

LowerStatus lowerBinary(Lowering& l)
{
    const int op = indexIn(kBinaryOps, l.node.op.subOp());
    if (op < 0)
        return lowerError("unsupported Binary op '" + l.node.op.subOp() + "'");
    if (auto s = sameDType(l, 0, "Binary"); !s)
        return s;
    const DType t = l.in[0]->dtype;
    const int mode = t == DType::F32 ? 0 : t == DType::I64 ? 2 : t == DType::I32 ? 4 : t == DType::F64 ? 8 : -1;
    if (mode < 0)
        return lowerError("Binary does not support " + std::string(dtypeName(t)) + " on Vulkan");
    const Value& x = *l.in[0];
    const Value& y = *l.in[1];
    // Opset-6 PRelu: a slope [C] applies along the channel dim (dim 1), which numpy broadcasting would not do.
    if (op == 8 && y.dims.size() == 1 && x.dims.size() > 2 && y.dims[0] == x.dims[1] && !broadcastDims(x.dims, y.dims)) {
        Value slope = y;
        slope.dims.resize(x.dims.size() - 1, 1);
        l.out = {x.dims, t, kNoSlot};
        emitBinary(l, mode, op, {&x, &slope}, l.outputSlot(), x.dims);
        return true;
    }
    auto out = broadcastAll({&x, &y}, "Binary");
    if (!out)
        return out.error();
    l.out = {*out, t, kNoSlot};
    emitBinary(l, mode, op, {&x, &y}, l.outputSlot(), *out);
    return true;
}

LowerStatus lowerCompare(Lowering& l)
{
    const int op = compareOp(l.node.op.subOp());
    if (op < 0)
        return lowerError("unsupported Compare op '" + l.node.op.subOp() + "'");
    if (auto s = sameDType(l, 0, "Compare"); !s)
        return s;
    const DType t = l.in[0]->dtype;
    const int mode = t == DType::F32 ? 1
        : t == DType::I64            ? 3
        : t == DType::F64            ? 9
        : (t == DType::I32 || t == DType::Bool) ? 5
                                     : -1;
    if (mode < 0)
        return lowerError("Compare does not support " + std::string(dtypeName(t)) + " on Vulkan");
    auto out = broadcastAll({l.in[0], l.in[1]}, "Compare");
    if (!out)
        return out.error();
    l.out = {*out, DType::Bool, kNoSlot};
    emitBinary(l, mode, op, {l.in[0], l.in[1]}, l.outputSlot(), *out);
    return true;
}

LowerStatus lowerWhere(Lowering& l)
{
    if (l.in[0]->dtype != DType::Bool)
        return lowerError("Where: the condition must be Bool");
    if (auto s = sameDType(l, 1, "Where"); !s)
        return s;
    auto out = broadcastAll(l.in, "Where");
    if (!out)
        return out.error();
    l.out = {*out, l.in[1]->dtype, kNoSlot};
    emitBinary(l, deviceElementSize(l.out.dtype) == 8 ? 7 : 6, 0, l.in, l.outputSlot(), *out);
    return true;
}

LowerStatus lowerSum(Lowering& l)
{
    if (auto s = sameDType(l, 0, "Sum"); !s)
        return s;
    const DType t = l.in[0]->dtype;
    const int mode = t == DType::F32 ? 0 : t == DType::I64 ? 2 : t == DType::I32 ? 4 : t == DType::F64 ? 8 : -1;
    if (mode < 0)
        return lowerError("Sum does not support " + std::string(dtypeName(t)) + " on Vulkan");
    if (l.in.size() == 1) {
        l.out = *l.in[0];
        l.view = true;
        return true;
    }
    auto out = broadcastAll(l.in, "Sum");
    if (!out)
        return out.error();
    l.out = {*out, t, kNoSlot};
    const std::size_t dst = l.outputSlot();
    emitBinary(l, mode, 0, {l.in[0], l.in[1]}, dst, *out);
    // Later inputs accumulate in place: each invocation reads and writes only its own element.
    for (std::size_t i = 2; i < l.in.size(); ++i)
        emitBinary(l, mode, 0, {&l.out, l.in[i]}, dst, *out);
    return true;
}

namespace {
LowerStatus emitUnary(Lowering& l, int op, std::array<double, 4> params)
{
    const Value& x = *l.in[0];
    if (x.dtype != DType::F32)
        return lowerError(l.node.op.label() + " needs F32 on Vulkan, got " + std::string(dtypeName(x.dtype)));
    const bool isNan = op == 13;
    l.out = {x.dims, isNan ? DType::Bool : DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t n = elementCount(x.dims);
    // F32 results go four to an invocation (unary.comp's kVec); IsNaN's Bool words one at a time.
    const int vec = isNan ? 1 : 4;
    Dispatch d{"unary",
               {i32(n), op, floatBits(params[0]), floatBits(params[1]), floatBits(params[2]), floatBits(params[3]),
                isNan ? 1 : 0, 0, 0, 0},
               {x.slot, dst},
               linearGroups((n + vec - 1) / vec)};
    d.constants = {op, vec};
    if (n)
        l.dispatches.push_back(std::move(d));
    return true;
}
} // namespace

LowerStatus lowerActivation(Lowering& l)
{
    const int op = indexIn(kActivations, l.node.op.subOp());
    if (op < 0)
        return lowerError("unsupported Activation op '" + l.node.op.subOp() + "'");
    const Attrs& a = l.attrs();
    std::array<double, 4> p{0, 0, 0, 0};
    const std::string& name = l.node.op.subOp();
    if (name == "LeakyRelu")
        p[0] = a.doubleOr("alpha", 0.01);
    else if (name == "Elu")
        p[0] = a.doubleOr("alpha", 1.0);
    else if (name == "Selu")
        p = {a.doubleOr("alpha", 1.67326319217681884765625), 0, a.doubleOr("gamma", 1.05070102214813232421875), 0};
    else if (name == "Shrink")
        p = {0, a.doubleOr("bias", 0.0), 0, a.doubleOr("lambd", 0.5)};
    else if (name == "HardSigmoid")
        p = {a.doubleOr("alpha", 0.2), a.doubleOr("beta", 0.5), 0, 0};
    return emitUnary(l, op, p);
}

LowerStatus lowerClip(Lowering& l)
{
    bool dynamic = false;
    const double inf = std::numeric_limits<double>::infinity();
    auto lo = scalarBound(l, "min", 1, -inf, dynamic);
    auto hi = scalarBound(l, "max", 2, inf, dynamic);
    if (dynamic)
        return lowerError("Clip: min and max must be attributes or constant inputs on Vulkan");
    return emitUnary(l, kClip, {*lo, *hi, 0, 0});
}

LowerStatus lowerCast(Lowering& l)
{
    if (auto narrow = l.attrs().getString("onnx_to")) // held by conversion (ir/narrow_types.h): values need rounding
        return lowerError("Cast: Vulkan has no " + *narrow + " type (the CPU backend rounds onto it)");
    const std::string toName = l.attrs().stringOr("to", std::string(dtypeName(l.node.shape.dtype)));
    auto to = parseDType(toName);
    if (!to)
        return lowerError("Cast: unknown target dtype '" + toName + "'");
    const Value& x = *l.in[0];
    const int from = castCode(x.dtype), into = castCode(*to);
    if (from < 0 || into < 0)
        return lowerError("Cast: " + std::string(dtypeName(x.dtype)) + " to " + toName + " is not supported on Vulkan");
    l.out = {x.dims, *to, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t n = elementCount(x.dims);
    if (n)
        l.dispatches.push_back({"cast", {i32(n), from, into}, {x.slot, dst}, linearGroups(n)});
    return true;
}

LowerStatus lowerConstantOfShape(Lowering& l)
{
    auto dims = intsFromAttrOrConstant(l, "shape", 0);
    if (!dims)
        return lowerError("ConstantOfShape: no shape (attribute or constant input)");
    for (std::int64_t d : *dims)
        if (d < 0)
            return lowerError("ConstantOfShape: negative dim in " + dimsString(*dims));
    DType dtype = l.node.shape.dtype;
    if (auto name = l.attrs().getString("dtype")) {
        auto t = parseDType(*name);
        if (!t)
            return lowerError("ConstantOfShape: unknown dtype '" + *name + "'");
        dtype = *t;
    }
    const double value = l.attrs().doubleOr("value", 0.0);
    std::array<std::int32_t, 2> words{0, 0};
    if (dtype == DType::F32) {
        words[0] = floatBits(value);
    } else if (dtype == DType::I64) {
        const auto v = static_cast<std::int64_t>(value);
        std::memcpy(words.data(), &v, 8);
    } else if (dtype == DType::F64) {
        std::memcpy(words.data(), &value, 8);
    } else if (dtype == DType::Bool) {
        words[0] = value != 0.0 ? 1 : 0;
    } else if (deviceElementSize(dtype) == 4) {
        words[0] = static_cast<std::int32_t>(value);
    } else {
        return lowerError("ConstantOfShape: " + std::string(dtypeName(dtype)) + " is not supported on Vulkan");
    }
    l.out = {*dims, dtype, kNoSlot};
    const std::size_t dst = l.outputSlot();
    // Filled in pieces that each fit one binding: the light CNNs make their large weights with ConstantOfShape.
    const std::uint64_t n = elementCount(*dims), size = deviceElementSize(dtype);
    const std::uint64_t piece = std::max<std::uint64_t>(l.maxBinding / size / 1024 * 1024, 1024);
    for (std::uint64_t first = 0; first < n; first += piece) {
        const std::uint64_t count = std::min(piece, n - first);
        Dispatch d{"unary", {i32(count), -1, 0, 0, 0, 0, 0, i32(size / 4), words[0], words[1]}, {kNoSlot, dst},
                   linearGroups(count)};
        d.ranges = {{0, 0}, {first * size, count * size}};
        l.dispatches.push_back(std::move(d));
    }
    return true;
}

} // namespace costscope::vk
