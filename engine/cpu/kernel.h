// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/thread_pool.h"
#include "ir/graph.h"
#include "op_attrs.h"
#include "shape_util.h"
#include "tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope::cpu {

using Dims = std::vector<std::int64_t>;
using Inputs = std::vector<const HostTensor*>;

struct KernelContext {
    ThreadPool& pool;
    const Node& node;
    const Bindings& bindings;
    const Attrs& attrs() const { return node.op.attrs; }
};

// A kernel computes the node's output from its inputs: it sets `out`'s dims and dtype (out.reset keeps the buffer
// of the previous run when large enough) and fills it. Errors say what is wrong; the plan adds the node.
using KernelStatus = Result<bool>;
using KernelFn = KernelStatus (*)(KernelContext& ctx, const Inputs& in, HostTensor& out);

// nullptr for kinds the CPU backend cannot run (Custom, Unknown and the leaves, which the plan handles).
KernelFn findKernel(OpKind kind);
// The kernel that runs node `n` (nullptr for a leaf, which the plan fills), or why the CPU backend cannot run it.
Result<KernelFn> kernelForNode(const Node& n);
// Kernels for ONNX ops (default domain) the op catalogue has no kind for, which import as unknown ops that keep
// their ONNX attributes (onnx_kernels.cpp); nullptr for any other name.
KernelFn findOnnxKernel(std::string_view opType);
// Input `slot` of the ONNX node (its position in the ONNX input list, where omitted optional inputs still count),
// or nullptr when it was omitted.
const HostTensor* onnxInput(const KernelContext& ctx, const Inputs& in, std::size_t slot);

inline KernelStatus ok()
{
    return true;
}
inline Diagnostic fail(std::string message)
{
    return Diagnostic::error(std::move(message));
}

// Shared helpers (product, dimsString, normalizeAxis, contiguousStrides: shape_util.h; spatialAttr: op_attrs.h).
// An int list from attribute `key`, else from input `index` (an integer tensor), else nullopt.
std::optional<std::vector<std::int64_t>> intsFromAttrOrInput(const KernelContext& ctx, const Inputs& in,
                                                             const std::string& key, std::size_t index);
// The node's stated shape with the bindings applied, when every dim resolves.
std::optional<Dims> statedDims(const KernelContext& ctx);
KernelStatus requireDType(const HostTensor& t, DType want, const char* what);

// Applies a named activation ("Gelu", "Relu", ...) to floats in place; false for an unknown name.
bool applyActivation(ThreadPool& pool, const std::string& name, float* data, std::int64_t n);
// out[i] = in[base + sum(index_d * strides_d)] over outDims, for elements of `elementSize` bytes.
void stridedCopy(ThreadPool& pool, const std::byte* in, std::int64_t base, const Dims& strides, const Dims& outDims,
                 std::byte* out, std::size_t elementSize);

// Kernels, by file.
KernelStatus runBinary(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runCompare(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runWhere(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runSum(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runActivation(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runClip(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runCast(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runReshape(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runUnsqueeze(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runSqueeze(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runFlatten(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runIdentity(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runConstantOfShape(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runTranspose(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runNarrow(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runSlice(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runConcat(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runExpand(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runTile(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runPad(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runGather(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runGatherElements(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runReduce(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runSoftmax(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runLogSoftmax(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runLayerNorm(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runRmsNorm(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runBatchNorm(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runInstanceNorm(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runLrn(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runMatMul(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runFusedMatMulBiasAct(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runGemm(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runAttention(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runConv(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runConvTranspose(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runPool(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runGlobalPool(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runFft(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runLogMel(KernelContext&, const Inputs&, HostTensor&);
KernelStatus runWelchPeaks(KernelContext&, const Inputs&, HostTensor&);
// ONNX-only ops (findOnnxKernel) in files of their own.
KernelStatus runOnnxAttention(KernelContext&, const Inputs&, HostTensor&);
KernelFn findQuantizeNormKernel(std::string_view opType); // QuantizeLinear, DequantizeLinear, RMSNormalization
KernelFn findLossKernel(std::string_view opType);          // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss

} // namespace costscope::cpu
