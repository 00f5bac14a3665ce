// SPDX-License-Identifier: MIT
// Activation, Clip and Cast.
#include "cpu/dtype_convert.h"
#include "cpu/kernel.h"
#include "cpu/narrow_round.h"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace costscope::cpu {

namespace {
enum class Act {
    Relu, Sigmoid, Tanh, Exp, Log, Sqrt, Rsqrt, Neg, Abs, Erf, Sign, Softplus, Softsign, IsNaN, Reciprocal, Floor,
    Ceil, Round, Sin, Cos, Gelu, GeluApprox, Silu, LeakyRelu, Elu, Selu, Shrink, HardSigmoid, Not, Tan, Asin, Acos,
    Atan, Sinh, Cosh, Asinh, Acosh, Atanh, IsInf, HardSwish, Mish, Celu, ThresholdedRelu
};
constexpr Act kLastAct = Act::ThresholdedRelu;

std::optional<Act> parseAct(const std::string& s)
{
    static const std::pair<const char*, Act> names[] = {
        {"Relu", Act::Relu},       {"Sigmoid", Act::Sigmoid},       {"Tanh", Act::Tanh},
        {"Exp", Act::Exp},         {"Log", Act::Log},               {"Sqrt", Act::Sqrt},
        {"Rsqrt", Act::Rsqrt},     {"Neg", Act::Neg},               {"Abs", Act::Abs},
        {"Erf", Act::Erf},         {"Sign", Act::Sign},             {"Softplus", Act::Softplus},
        {"Softsign", Act::Softsign}, {"IsNaN", Act::IsNaN},         {"Reciprocal", Act::Reciprocal},
        {"Floor", Act::Floor},     {"Ceil", Act::Ceil},             {"Round", Act::Round},
        {"Sin", Act::Sin},         {"Cos", Act::Cos},               {"Gelu", Act::Gelu},
        {"GeluApprox", Act::GeluApprox}, {"Silu", Act::Silu},       {"LeakyRelu", Act::LeakyRelu},
        {"Elu", Act::Elu},         {"Selu", Act::Selu},             {"Shrink", Act::Shrink},
        {"HardSigmoid", Act::HardSigmoid}, {"Not", Act::Not},         {"Tan", Act::Tan},
        {"Asin", Act::Asin},       {"Acos", Act::Acos},             {"Atan", Act::Atan},
        {"Sinh", Act::Sinh},       {"Cosh", Act::Cosh},             {"Asinh", Act::Asinh},
        {"Acosh", Act::Acosh},     {"Atanh", Act::Atanh},           {"IsInf", Act::IsInf},
        {"HardSwish", Act::HardSwish}, {"Mish", Act::Mish},         {"Celu", Act::Celu},
        {"ThresholdedRelu", Act::ThresholdedRelu}};
    for (const auto& [n, a] : names)
        if (s == n)
            return a;
    return std::nullopt;
}

// Parameters of the parameterised activations, with ONNX's defaults.
struct ActParams {
    double alpha = 0, beta = 0, gamma = 0, bias = 0, lambd = 0;
    bool negative = true, positive = true; // IsInf's detect_negative, detect_positive
};

ActParams paramsFor(Act a, const Attrs& attrs)
{
    ActParams p;
    switch (a) {
    case Act::LeakyRelu: p.alpha = attrs.doubleOr("alpha", 0.01); break;
    case Act::Elu: p.alpha = attrs.doubleOr("alpha", 1.0); break;
    case Act::Selu:
        p.alpha = attrs.doubleOr("alpha", 1.67326319217681884765625);
        p.gamma = attrs.doubleOr("gamma", 1.05070102214813232421875);
        break;
    case Act::Shrink:
        p.bias = attrs.doubleOr("bias", 0.0);
        p.lambd = attrs.doubleOr("lambd", 0.5);
        break;
    case Act::HardSigmoid:
        p.alpha = attrs.doubleOr("alpha", 0.2);
        p.beta = attrs.doubleOr("beta", 0.5);
        break;
    case Act::Celu:
    case Act::ThresholdedRelu: p.alpha = attrs.doubleOr("alpha", 1.0); break;
    case Act::IsInf:
        p.negative = attrs.getBool("detect_negative").value_or(true);
        p.positive = attrs.getBool("detect_positive").value_or(true);
        break;
    default: break;
    }
    return p;
}

template <class T>
[[gnu::always_inline]] inline T activate(Act a, T x, const ActParams& p)
{
    const T one = 1;
    switch (a) {
    case Act::Relu: return x > 0 ? x : T(0);
    case Act::Sigmoid: return one / (one + std::exp(-x));
    case Act::Tanh: return std::tanh(x);
    case Act::Exp: return std::exp(x);
    case Act::Log: return std::log(x);
    case Act::Sqrt: return std::sqrt(x);
    case Act::Rsqrt: return one / std::sqrt(x);
    case Act::Neg: return -x;
    case Act::Abs: return std::abs(x);
    case Act::Erf: return std::erf(x);
    case Act::Sign: return T((x > 0) - (x < 0));
    case Act::Softplus: return x > 20 ? x : std::log1p(std::exp(x));
    case Act::Softsign: return x / (one + std::abs(x));
    case Act::IsNaN: return T(std::isnan(x) ? 1 : 0);
    case Act::Reciprocal: return one / x;
    case Act::Floor: return std::floor(x);
    case Act::Ceil: return std::ceil(x);
    case Act::Round: return std::nearbyint(x); // round half to even, as ONNX Round
    case Act::Sin: return std::sin(x);
    case Act::Cos: return std::cos(x);
    case Act::Gelu: return T(0.5) * x * (one + std::erf(x * T(0.70710678118654752440)));
    case Act::GeluApprox:
        return T(0.5) * x * (one + std::tanh(T(0.79788456080286535588) * (x + T(0.044715) * x * x * x)));
    case Act::Silu: return x / (one + std::exp(-x));
    case Act::LeakyRelu: return x < 0 ? T(p.alpha) * x : x;
    case Act::Elu: return x < 0 ? T(p.alpha) * (std::exp(x) - one) : x;
    case Act::Selu: return T(p.gamma) * (x > 0 ? x : T(p.alpha) * (std::exp(x) - one));
    case Act::Shrink: return x < -T(p.lambd) ? x + T(p.bias) : (x > T(p.lambd) ? x - T(p.bias) : T(0));
    case Act::HardSigmoid: return std::max(T(0), std::min(one, T(p.alpha) * x + T(p.beta)));
    case Act::Not: return T(x == T(0) ? 1 : 0);
    case Act::Tan: return std::tan(x);
    case Act::Asin: return std::asin(x);
    case Act::Acos: return std::acos(x);
    case Act::Atan: return std::atan(x);
    case Act::Sinh: return std::sinh(x);
    case Act::Cosh: return std::cosh(x);
    case Act::Asinh: return std::asinh(x);
    case Act::Acosh: return std::acosh(x);
    case Act::Atanh: return std::atanh(x);
    case Act::IsInf: return T(std::isinf(x) && (x > 0 ? p.positive : p.negative) ? 1 : 0);
    case Act::HardSwish: return x * std::max(T(0), std::min(one, x / T(6) + T(0.5)));
    case Act::Mish: return x * std::tanh(std::log1p(std::exp(x)));
    case Act::Celu: return std::max(T(0), x) + std::min(T(0), T(p.alpha) * (std::exp(x / T(p.alpha)) - one));
    case Act::ThresholdedRelu: return x > T(p.alpha) ? x : T(0);
    }
    return x;
}

// One loop per activation, so that the switch in activate() folds away and simple ones (Relu, Neg, Abs) vectorise;
// a switch per element ran Relu at about 2 ns an element.
template <Act A, class T, class O>
void activateRange(const ActParams& p, const T* x, O* o, std::int64_t s, std::int64_t e)
{
    for (std::int64_t i = s; i < e; ++i)
        o[i] = static_cast<O>(activate(A, x[i], p));
}

template <class T, class O, std::size_t... I>
constexpr auto rangeTable(std::index_sequence<I...>)
{
    return std::array{&activateRange<static_cast<Act>(I), T, O>...};
}

template <class T, class O>
void activateAll(ThreadPool& pool, Act a, const ActParams& p, const T* x, O* o, std::int64_t n)
{
    static constexpr auto table = rangeTable<T, O>(std::make_index_sequence<std::size_t(kLastAct) + 1>());
    const auto range = table[static_cast<std::size_t>(a)];
    pool.parallelFor(n, 1 << 14, [&](std::int64_t s, std::int64_t e) { range(p, x, o, s, e); });
}
} // namespace

// Applies a named activation to floats in place; FusedMatMulBiasAct uses it. False for unknown names.
bool applyActivation(ThreadPool& pool, const std::string& name, float* data, std::int64_t n)
{
    auto a = parseAct(name);
    if (!a)
        return false;
    activateAll(pool, *a, ActParams{}, data, data, n);
    return true;
}

namespace {
KernelStatus bitwiseNot(const HostTensor& x, HostTensor& out)
{
    if (isFloating(x.dtype()) || x.dtype() == DType::Bool)
        return fail("Activation.BitwiseNot takes integers, got " + describe(x));
    out.reset(x.dims(), x.dtype());
    for (std::size_t i = 0; i < x.byteSize(); ++i)
        out.bytes()[i] = ~x.bytes()[i];
    return ok();
}
} // namespace

KernelStatus runActivation(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (ctx.node.op.subOp() == "BitwiseNot") // bitwise, so byte by byte whatever the integer width
        return bitwiseNot(*in[0], out);
    auto a = parseAct(ctx.node.op.subOp());
    if (!a)
        return fail("unsupported Activation op '" + ctx.node.op.subOp() + "'");
    const HostTensor& x = *in[0];
    const ActParams p = paramsFor(*a, ctx.attrs());
    const auto n = static_cast<std::int64_t>(x.elements());
    if (*a == Act::IsNaN || *a == Act::IsInf) {
        out.reset(x.dims(), DType::Bool);
        if (x.dtype() == DType::F32)
            activateAll(ctx.pool, *a, p, x.values<float>().data(), out.values<std::uint8_t>().data(), n);
        else if (x.dtype() == DType::F64)
            activateAll(ctx.pool, *a, p, x.values<double>().data(), out.values<std::uint8_t>().data(), n);
        else
            std::memset(out.bytes(), 0, out.byteSize());
        return ok();
    }
    out.reset(x.dims(), x.dtype());
    if (x.dtype() == DType::F32)
        activateAll(ctx.pool, *a, p, x.values<float>().data(), out.values<float>().data(), n);
    else if (x.dtype() == DType::F64)
        activateAll(ctx.pool, *a, p, x.values<double>().data(), out.values<double>().data(), n);
    else
        return fail("Activation." + ctx.node.op.subOp() + " needs F32 or F64, got " + describe(x));
    return ok();
}

KernelStatus runClip(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto bound = [&](const char* key, std::size_t index, double dflt) {
        if (auto v = ctx.attrs().getDouble(key))
            return *v;
        if (index < in.size() && in[index]->elements() == 1)
            return in[index]->valueAsDouble(0);
        return dflt;
    };
    const double lo = bound("min", 1, -std::numeric_limits<double>::infinity());
    const double hi = bound("max", 2, std::numeric_limits<double>::infinity());
    out.reset(x.dims(), x.dtype());
    const auto n = static_cast<std::int64_t>(x.elements());
    auto clip = [&](auto zero) {
        using T = decltype(zero);
        const T* src = x.values<T>().data();
        T* dst = out.values<T>().data();
        ctx.pool.parallelFor(n, 1 << 14, [&](std::int64_t s, std::int64_t e) {
            for (std::int64_t i = s; i < e; ++i)
                dst[i] = static_cast<T>(std::min(std::max(double(src[i]), lo), hi));
        });
    };
    if (x.dtype() == DType::F32)
        clip(float{});
    else if (x.dtype() == DType::F64)
        clip(double{});
    else if (x.dtype() == DType::I64)
        clip(std::int64_t{});
    else if (x.dtype() == DType::I32)
        clip(std::int32_t{});
    else
        return fail("Clip does not support " + describe(x));
    return ok();
}

KernelStatus runCast(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    auto narrow = narrowTarget(ctx, "Cast");
    if (!narrow)
        return narrow.error();
    if (*narrow) {
        HostTensor wide;
        if (!convertTensor(ctx.pool, *in[0], DType::F64, wide))
            return fail("Cast: " + describe(*in[0]) + " to " + std::string(narrowTypeName(**narrow))
                        + " is not supported on the CPU backend");
        return writeNarrow(ctx, wide, **narrow, saturateAttr(ctx), out);
    }
    const std::string toName = ctx.attrs().stringOr("to", std::string(dtypeName(ctx.node.shape.dtype)));
    auto to = parseDType(toName);
    if (!to)
        return fail("Cast: unknown target dtype '" + toName + "'");
    if (!convertTensor(ctx.pool, *in[0], *to, out))
        return fail("Cast: " + describe(*in[0]) + " to " + toName + " is not supported on the CPU backend");
    return ok();
}

} // namespace costscope::cpu
