// SPDX-License-Identifier: MIT
#pragma once
// Lowering: each graph node becomes one Launch with its shapes, pointers and library plans fixed. A lowering
// checks the node against the CPU backend's semantics and returns a plain message when it cannot run it (the
// backend adds the node).

#include "cuda/cuda_kernels.h"
#include "cuda/cuda_plan.h"
#include "cuda/fused_kernels.h"
#include "fusion_plan.h"
#include "op_attrs.h"
#include "qkv_views.h"
#include "shape_util.h"

#include <optional>
#include <string_view>

namespace costscope::cuda {

using Dims = std::vector<std::int64_t>;

struct LowerContext {
    CudaPlan& plan;
    std::size_t pos; // the node's position in the graph
    const Node& node;
    std::vector<const DeviceValue*> in;
    std::vector<std::size_t> inPos;
    DeviceValue& out;
    // The kernel that runs the node where its op's name does not say (node labels show "Op[kernel]").
    std::string kernel = {};

    const Attrs& attrs() const { return node.op.attrs; }
    // An int list from attribute `key`, else from input `index` when that input is a Param/Constant with data
    // (its values are known on the host), else nullopt.
    std::optional<Dims> intsFromAttrOrConstant(const std::string& key, std::size_t index) const;
    // Scratch device memory owned by the plan.
    Result<void*> workspace(std::size_t bytes) const { return plan.allocate(bytes, pos); }
};

using LowerResult = Result<Launch>;

inline Diagnostic lowerError(std::string message)
{
    return Diagnostic::error(std::move(message));
}

// Reshape-like ops whose output shares the input's memory.
bool isAliasOp(OpKind kind);
// nullptr when the backend has no lowering for the kind.
using LowerFn = LowerResult (*)(LowerContext&);
LowerFn findLowering(OpKind kind);

// Helpers shared by the lowering files (those all backends share are in shape_util.h and op_attrs.h).
// Element strides of `in` read in the broadcast shape `out` (0 along broadcast dims); nullopt if it does not fit.
std::optional<Dims> broadcastStrides(const Dims& in, const Dims& out);
std::string valueString(const DeviceValue& v);
Result<bool> requireF32(const DeviceValue& v, const char* what);
// A named Binary sub-op ("Add"); nullopt for an unknown name.
std::optional<BinaryOp> binaryOpFor(const std::string& name);
// A named activation ("Gelu") with its attributes; nullopt for an unknown name.
std::optional<ActArgs> activationFor(const std::string& name, const Attrs& attrs);
// The typed kernels' element type of a dtype (Bool as U8); nullopt for dtypes they do not take.
std::optional<ElemType> elemTypeOf(DType t);
// The fused element-wise programs' type of a dtype: elemTypeOf's, and F16 and BF16.
std::optional<ElemType> programTypeOf(DType t);
// One launch of the element-wise program `code` (registers 0.. are `inputs`, read broadcast into out's shape; op j
// writes register inputs + j) storing its last register into out (F32, F16 or BF16): a kernel of its own where
// NVRTC compiles it, else the interpreted kernel. `label`, when set, gets the kernel's name around `name`.
LowerResult elementwiseProgram(const std::vector<const DeviceValue*>& inputs, const std::vector<FusedOp>& code,
                               const DeviceValue& out, const std::string& name, std::string* label);
// Sets rank, dims, strides and count of `args` for a and b broadcast into out; false when they do not broadcast
// or the rank exceeds kMaxRank.
bool makeBroadcastArgs(const Dims& a, const Dims& b, const Dims& out, BinaryArgs& args);
// Fills a StridedCopyArgs; false when the rank exceeds kMaxRank.
bool makeStridedCopy(const Dims& dims, const Dims& srcStrides, const Dims& dstStrides, std::int64_t srcBase,
                     std::int64_t dstBase, int elementSize, StridedCopyArgs& out);

// The launch of attention problem `a` (node position `node`): cuDNN's fused SDPA where it takes the problem
// (cudnn_sdpa_config.h, cudnn_sdpa.h), else our kernels (launchAttention). `kernel` gets "cudnn_sdpa", or for a
// 16-bit problem that stays with ours "ours: " and why; nothing for F32 (only our kernels take it).
LowerResult attentionLaunch(CudaPlan& plan, const AttentionArgs& a, std::size_t node, std::string& kernel);
// Whether 16-bit attention goes to cuDNN's SDPA unless cuDNN refuses it: built with cudnn_frontend, not switched off.
bool cudnnSdpaExpected();
// The same problem with q, k and v read in place (`inPlace`: `a` with q, k and v pointing into one packed tensor and
// its strides over them; the output as `a` has it, dense): cuDNN's SDPA where it takes that ("cudnn_sdpa, qkv in
// place"), else our kernels in place where cuDNN would not take the dense problem either ("ours..., qkv in place"),
// else q, k and v copied into dense scratch in the same launch and attentionLaunch ("..., qkv copied").
LowerResult attentionLaunchInPlace(CudaPlan& plan, const AttentionArgs& a, const AttentionArgs& inPlace,
                                   std::size_t node, std::string& kernel);

// One launch for a fusion group whose exit has its buffer and whose internal members have their dims (and no buffer);
// `label` gets the kernel's name. An error when the group cannot run as one kernel: its nodes then run one by one.
// An attention group with a `view` reads q, k and v in place from the view's base (qkv_views.h).
LowerResult lowerFusionGroup(CudaPlan& plan, const FusionGroup& group, std::string* label,
                             const QkvView* view = nullptr);

LowerResult lowerBinary(LowerContext&);
LowerResult lowerActivation(LowerContext&);
LowerResult lowerMatMul(LowerContext&);
LowerResult lowerFusedMatMulBiasAct(LowerContext&);
LowerResult lowerGemm(LowerContext&);
LowerResult lowerTranspose(LowerContext&);
LowerResult lowerSlice(LowerContext&);
LowerResult lowerNarrow(LowerContext&);
LowerResult lowerConcat(LowerContext&);
LowerResult lowerExpand(LowerContext&);
LowerResult lowerGather(LowerContext&);
LowerResult lowerReduce(LowerContext&);
LowerResult lowerSoftmax(LowerContext&);
LowerResult lowerLogSoftmax(LowerContext&);
LowerResult lowerLayerNorm(LowerContext&);
LowerResult lowerRmsNorm(LowerContext&);
LowerResult lowerGlobalPool(LowerContext&);
LowerResult lowerAttention(LowerContext&);
LowerResult lowerConv(LowerContext&);
LowerResult lowerPool(LowerContext&);
LowerResult lowerFft(LowerContext&);
LowerResult lowerWelchPeaks(LowerContext&);
LowerResult lowerConstantOfShape(LowerContext&);
LowerResult lowerCast(LowerContext&);
LowerResult lowerSum(LowerContext&);
LowerResult lowerBatchNorm(LowerContext&);
LowerResult lowerLrn(LowerContext&);
LowerResult lowerCompare(LowerContext&);
LowerResult lowerWhere(LowerContext&);
LowerResult lowerClip(LowerContext&);
LowerResult lowerGatherElements(LowerContext&);
LowerResult lowerGatherND(LowerContext&);
// Ops the import keeps under their ONNX name (OpKind::Unknown) that have a CUDA kernel: GatherND.
LowerResult lowerOnnxByName(LowerContext&);
// Whether lowerOnnxByName takes the ONNX op `opType`.
bool lowersOnnxByName(std::string_view opType);
// A node without a CUDA kernel run by the CPU backend's kernel on the host, between copies (cuda/host_fallback.h
// says which nodes): labelled "Op[host fallback: CPU kernel]".
LowerResult lowerHostFallback(LowerContext&);
LowerResult lowerPad(LowerContext&);
LowerResult lowerTile(LowerContext&);
LowerResult lowerConvTranspose(LowerContext&);
LowerResult lowerInstanceNorm(LowerContext&);

} // namespace costscope::cuda
