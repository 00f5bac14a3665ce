// SPDX-License-Identifier: MIT
// ONNX ops the op catalogue has no kind for (they import as unknown ops with their ONNX attributes): Shape, Size,
// ArgMax, ArgMin, Trilu, CumSum and Range. They read any real dtype through
// valueAsDouble/valueAsInt and write I64 or F64 before a conversion to the output's dtype: these ops move few
// values, and one path for every dtype keeps them short.
#include "cpu/dtype_convert.h"
#include "cpu/kernel.h"
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace costscope::cpu {

const HostTensor* onnxInput(const KernelContext& ctx, const Inputs& in, std::size_t slot)
{
    auto slots = ctx.attrs().getInts("onnx_input_slots");
    if (!slots)
        return slot < in.size() ? in[slot] : nullptr;
    for (std::size_t i = 0; i < slots->size() && i < in.size(); ++i)
        if (static_cast<std::size_t>((*slots)[i]) == slot)
            return in[i];
    return nullptr;
}

namespace {
KernelStatus runShape(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const auto rank = static_cast<std::int64_t>(in[0]->rank());
    auto clampAxis = [&](std::int64_t a) { return std::clamp(a < 0 ? a + rank : a, std::int64_t{0}, rank); };
    const std::int64_t start = clampAxis(ctx.attrs().intOr("start", 0));
    const std::int64_t end = clampAxis(ctx.attrs().intOr("end", rank));
    std::vector<std::int64_t> dims(in[0]->dims().begin() + start, in[0]->dims().begin() + std::max(start, end));
    out = HostTensor::fromBytes({static_cast<std::int64_t>(dims.size())}, DType::I64, dims.data(),
                                dims.size() * sizeof(std::int64_t));
    return ok();
}

KernelStatus runSize(KernelContext&, const Inputs& in, HostTensor& out)
{
    const auto n = static_cast<std::int64_t>(in[0]->elements());
    out = HostTensor::fromBytes({}, DType::I64, &n, sizeof n);
    return ok();
}

KernelStatus runArgReduce(KernelContext& ctx, const Inputs& in, HostTensor& out, bool max)
{
    const HostTensor& x = *in[0];
    auto axis = normalizeAxis(ctx.attrs().intOr("axis", 0), x.rank());
    if (!axis)
        return fail("axis " + std::to_string(ctx.attrs().intOr("axis", 0)) + " is out of range for " + describe(x));
    const bool last = ctx.attrs().intOr("select_last_index", 0) != 0;
    const auto a = static_cast<std::size_t>(*axis);
    const std::int64_t outer = product(x.dims(), 0, a), n = x.dim(a), inner = product(x.dims(), a + 1);
    if (n == 0)
        return fail("cannot take Arg" + std::string(max ? "Max" : "Min") + " over an empty axis");
    Dims dims = x.dims();
    if (ctx.attrs().intOr("keepdims", 1) != 0)
        dims[a] = 1;
    else
        dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(a));
    out.reset(dims, DType::I64);
    std::int64_t* o = out.values<std::int64_t>().data();
    for (std::int64_t i = 0; i < outer; ++i)
        for (std::int64_t k = 0; k < inner; ++k) {
            std::int64_t best = 0;
            double bestValue = x.valueAsDouble(static_cast<std::uint64_t>(i * n * inner + k));
            for (std::int64_t j = 1; j < n; ++j) {
                const double v = x.valueAsDouble(static_cast<std::uint64_t>((i * n + j) * inner + k));
                const bool better = max ? (v > bestValue || (last && v == bestValue))
                                        : (v < bestValue || (last && v == bestValue));
                if (better) {
                    best = j;
                    bestValue = v;
                }
            }
            o[i * inner + k] = best;
        }
    return ok();
}

KernelStatus runArgMax(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return runArgReduce(ctx, in, out, true);
}

KernelStatus runArgMin(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return runArgReduce(ctx, in, out, false);
}

KernelStatus runTrilu(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (x.rank() < 2)
        return fail("Trilu needs a tensor of rank 2 or more, got " + describe(x));
    const HostTensor* kTensor = onnxInput(ctx, in, 1);
    const std::int64_t k = kTensor && kTensor->elements() ? kTensor->valueAsInt(0) : 0;
    const bool upper = ctx.attrs().intOr("upper", 1) != 0;
    out = x;
    const std::int64_t rows = x.dim(x.rank() - 2), cols = x.dim(x.rank() - 1);
    const std::size_t es = x.elementSize();
    const std::int64_t matrices = product(x.dims(), 0, x.rank() - 2);
    for (std::int64_t m = 0; m < matrices; ++m)
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t j = 0; j < cols; ++j)
                if (upper ? j - i < k : j - i > k)
                    std::memset(out.bytes() + static_cast<std::size_t>((m * rows + i) * cols + j) * es, 0, es);
    return ok();
}

// CumSum, and CumProd (opset 25) when `multiply`.
KernelStatus runCumulative(KernelContext& ctx, const Inputs& in, HostTensor& out, bool multiply)
{
    const HostTensor& x = *in[0];
    const char* name = multiply ? "CumProd" : "CumSum";
    if (in.size() < 2 || in[1]->elements() != 1)
        return fail(std::string(name) + " needs a scalar axis input");
    auto axis = normalizeAxis(in[1]->valueAsInt(0), x.rank());
    if (!axis)
        return fail("axis " + std::to_string(in[1]->valueAsInt(0)) + " is out of range for " + describe(x));
    const bool exclusive = ctx.attrs().intOr("exclusive", 0) != 0, reverse = ctx.attrs().intOr("reverse", 0) != 0;
    const auto a = static_cast<std::size_t>(*axis);
    const std::int64_t outer = product(x.dims(), 0, a), n = x.dim(a), inner = product(x.dims(), a + 1);
    const bool floating = isFloating(x.dtype());
    const HostTensor values = floating ? toF64(ctx.pool, x) : x;
    HostTensor wide(x.dims(), floating ? DType::F64 : DType::I64);
    for (std::int64_t i = 0; i < outer; ++i)
        for (std::int64_t k = 0; k < inner; ++k) {
            double acc = multiply ? 1 : 0;
            std::int64_t iacc = multiply ? 1 : 0;
            auto take = [&](std::uint64_t at) {
                if (multiply) {
                    acc *= values.valueAsDouble(at);
                    iacc *= values.valueAsInt(at);
                } else {
                    acc += values.valueAsDouble(at);
                    iacc += values.valueAsInt(at);
                }
            };
            for (std::int64_t step = 0; step < n; ++step) {
                const std::int64_t j = reverse ? n - 1 - step : step;
                const auto at = static_cast<std::uint64_t>((i * n + j) * inner + k);
                if (!exclusive)
                    take(at);
                if (floating)
                    wide.values<double>()[at] = acc;
                else
                    wide.values<std::int64_t>()[at] = iacc;
                if (exclusive)
                    take(at);
            }
        }
    return fromWide(ctx, wide, x.dtype(), out);
}

KernelStatus runCumSum(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return runCumulative(ctx, in, out, false);
}

KernelStatus runCumProd(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return runCumulative(ctx, in, out, true);
}

KernelStatus runRange(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 3 || in[0]->elements() != 1 || in[1]->elements() != 1 || in[2]->elements() != 1)
        return fail("Range needs three scalar inputs (start, limit, delta)");
    const DType t = in[0]->dtype();
    const bool floating = isFloating(t);
    const double start = in[0]->valueAsDouble(0), limit = in[1]->valueAsDouble(0), delta = in[2]->valueAsDouble(0);
    if (delta == 0)
        return fail("Range: delta is 0");
    const double count = std::ceil((limit - start) / delta);
    if (!(count < 1e9))
        return fail("Range: " + std::to_string(count) + " elements is too many");
    const auto n = static_cast<std::int64_t>(std::max(count, 0.0));
    HostTensor wide({n}, floating ? DType::F64 : DType::I64);
    for (std::int64_t i = 0; i < n; ++i) {
        if (floating) // start + i * delta, in the input's precision, as ONNX's reference accumulates
            wide.values<double>()[static_cast<std::size_t>(i)] =
                t == DType::F32 ? double(float(start) + float(i) * float(delta)) : start + double(i) * delta;
        else
            wide.values<std::int64_t>()[static_cast<std::size_t>(i)] = in[0]->valueAsInt(0) + i * in[2]->valueAsInt(0);
    }
    return fromWide(ctx, wide, t, out);
}
} // namespace

KernelFn findOnnxOutputKernel(std::string_view opType, std::int64_t output)
{
    if (output == 0)
        return findOnnxKernel(opType);
    if (opType == "Split")
        return runSplitOutput;
    if (opType == "TopK" && output == 1)
        return runTopK;
    if ((opType == "RNN" || opType == "GRU") && output <= 1)
        return findOnnxKernel(opType);
    if (opType == "LSTM" && output <= 2)
        return runLstm;
    if (opType == "Unique" && output <= 3)
        return runUnique;
    if (opType == "DynamicQuantizeLinear" && output <= 2)
        return runDynamicQuantizeLinear;
    if (opType == "Attention" && output <= 3)
        return runOnnxAttention;
    if (opType == "SoftmaxCrossEntropyLoss" && output == 1)
        return findLossKernel(opType);
    if (opType == "LayerNormalization" && output <= 2)
        return runLayerNormalizationOutputs;
    if (opType == "If" || opType == "Loop" || opType == "Scan") // each output node runs the op for its output
        return findOnnxKernel(opType);
    return nullptr;
}

KernelFn findOnnxKernel(std::string_view opType)
{
    static const std::pair<std::string_view, KernelFn> table[] = {
        {"Shape", runShape},     {"Size", runSize},   {"ArgMax", runArgMax},
        {"ArgMin", runArgMin},   {"Trilu", runTrilu}, {"CumSum", runCumSum},
        {"CumProd", runCumProd}, {"Range", runRange}, {"Attention", runOnnxAttention},
    };
    for (const auto& [name, fn] : table)
        if (name == opType)
            return fn;
    static const std::pair<std::string_view, KernelFn> newer[] = {
        {"Resize", runResize},
        {"CenterCropPad", runCenterCropPad},
        {"Col2Im", runCol2Im},
        {"GroupNormalization", runGroupNormalization},
        {"Split", runSplitOutput},
        {"If", runControlFlowOp},
        {"Loop", runControlFlowOp},
        {"Scan", runControlFlowOp},
        {"TopK", runTopK},
        {"Hardmax", runHardmax},
        {"OneHot", runOneHot},
        {"EyeLike", runEyeLike},
        {"Compress", runCompress},
        {"ScatterElements", runScatterElements},
        {"Scatter", runScatterElements}, // its opset 9 to 10 name
        {"ScatterND", runScatterND},
        {"GatherND", runGatherND},
        {"SpaceToDepth", runSpaceToDepth},
        {"DepthToSpace", runDepthToSpace},
        {"LpNormalization", runLpNormalization},
        {"Swish", runSwish},
        {"Det", runDet},
        {"BitCast", runBitCast},
        {"HannWindow", runHannWindow},
        {"HammingWindow", runHammingWindow},
        {"BlackmanWindow", runBlackmanWindow},
        {"ReverseSequence", runReverseSequence},
        {"Mean", runMean},
        {"CastLike", runCastLike},
        {"DFT", runDft},
        {"QLinearMatMul", runQLinearMatMul},
        {"Unique", runUnique},
        {"RNN", runRnn},
        {"GRU", runGru},
        {"LSTM", runLstm},
        {"Einsum", runEinsum},
        {"NonMaxSuppression", runNonMaxSuppression},
        {"RotaryEmbedding", runRotaryEmbedding},
        {"GridSample", runGridSample},
        {"LpPool", runLpPool},
        {"AffineGrid", runAffineGrid},
        {"DynamicQuantizeLinear", runDynamicQuantizeLinear},
    };
    for (const auto& [name, fn] : newer)
        if (name == opType)
            return fn;
    if (KernelFn fn = findQuantizeNormKernel(opType))
        return fn;
    return findLossKernel(opType);
}

} // namespace costscope::cpu
