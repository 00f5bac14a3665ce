// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"
#include "op_attrs.h"
#include "shape_util.h"
#include "tensor.h"
#include "vulkan/vk_shaders.h"

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace costscope::vk {

using Dims = std::vector<std::int64_t>;
constexpr std::size_t kNoSlot = SIZE_MAX;

// A tensor as the plan sees it: dims and dtype fixed at compile time, stored in a device slot (views share the
// slot of their input). Bool is one 32-bit word per element on the device; I64 and F64 two words.
struct Value {
    Dims dims;
    DType dtype = DType::F32;
    std::size_t slot = kNoSlot;
};

// One compute dispatch: shader, parameter words, tensor slots for bindings 1.. and the workgroup counts.
struct Dispatch {
    Dispatch() = default;
    Dispatch(std::string shader_, std::vector<std::int32_t> params_, std::vector<std::size_t> slots_,
             std::array<std::uint32_t, 3> groups_)
        : shader(std::move(shader_)), params(std::move(params_)), slots(std::move(slots_)), groups(groups_)
    {
    }

    std::string shader;
    std::vector<std::int32_t> params;
    std::vector<std::size_t> slots;
    std::array<std::uint32_t, 3> groups{1, 1, 1};
    // Per binding (parallel to `slots`): the byte range of the slot bound, {0, 0} for all of it. Lets a kernel
    // walk a tensor larger than the device's storage-buffer range in pieces.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    // Specialization constants (ids 0, 1, ...): the op selectors of unary.comp and binary.comp, so that the
    // driver compiles only the branch taken (CPU drivers such as lavapipe otherwise run every case, masked).
    std::vector<std::int32_t> constants;
};

// What one node lowers to. A lowering reads `in` (and `constants`, the host values of Param/Constant inputs,
// for shape operands such as Reshape's target), sets `out.dims`/`out.dtype`, and either marks the node a view
// or emits dispatches writing the slot from `newSlot`.
struct Lowering {
    const Node& node;
    const Bindings& bindings;
    std::uint64_t maxBinding; // the device's maxStorageBufferRange
    std::vector<const Value*> in;
    std::vector<const HostTensor*> constants; // per input; nullptr unless the input is a Param/Constant
    std::function<std::size_t(std::uint64_t bytes)> newSlot;
    // A slot holding host values computed at compile time, uploaded with the parameters.
    std::function<std::size_t(HostTensor values)> newConstant;
    Value out;
    bool view = false;
    std::vector<Dispatch> dispatches;

    const Attrs& attrs() const { return node.op.attrs; }
    // Allocates the output slot for out.dims/out.dtype and returns it.
    std::size_t outputSlot();
};

using LowerStatus = Result<bool>;
using LowerFn = LowerStatus (*)(Lowering&);
// nullptr for kinds without a Vulkan kernel.
LowerFn findLowering(OpKind kind);

// Device bytes per element (Bool 4, I64/F64 8, F32/I32 4); 0 for dtypes the Vulkan backend does not hold.
std::uint32_t deviceElementSize(DType t);
std::uint64_t elementCount(const Dims& d);
std::uint64_t deviceBytes(const Dims& d, DType t);
// Element strides of `d` aligned to the trailing dims of `out`; 0 where `d` broadcasts.
Dims broadcastStrides(const Dims& d, const Dims& out);
// An int list from attribute `key`, else from constant input `index`.
std::optional<Dims> intsFromAttrOrConstant(const Lowering& l, const std::string& key, std::size_t index);
// The node's stated shape with the bindings applied, when every dim resolves (and the shape is not empty).
std::optional<Dims> statedDims(const Lowering& l);

inline std::int32_t floatBits(double v)
{
    return std::bit_cast<std::int32_t>(static_cast<float>(v));
}
inline std::int32_t i32(std::int64_t v)
{
    return static_cast<std::int32_t>(v);
}
// Workgroup counts covering `threads` invocations of a 1-D shader (x capped, the rest in y; see common.glsl).
std::array<std::uint32_t, 3> linearGroups(std::uint64_t threads);
inline Diagnostic lowerError(std::string message)
{
    return Diagnostic::error(std::move(message));
}

// The activation's number in act.glsl; -1 for an unknown name.
int activationIndex(const std::string& name);

// Lowerings, by file.
LowerStatus lowerView(Lowering&);
LowerStatus lowerTranspose(Lowering&);
LowerStatus lowerSlice(Lowering&);
LowerStatus lowerNarrow(Lowering&);
LowerStatus lowerConcat(Lowering&);
LowerStatus lowerExpand(Lowering&);
LowerStatus lowerTile(Lowering&);
LowerStatus lowerPad(Lowering&);
LowerStatus lowerGather(Lowering&);
LowerStatus lowerGatherElements(Lowering&);
LowerStatus lowerBinary(Lowering&);
LowerStatus lowerCompare(Lowering&);
LowerStatus lowerWhere(Lowering&);
LowerStatus lowerSum(Lowering&);
LowerStatus lowerActivation(Lowering&);
LowerStatus lowerClip(Lowering&);
LowerStatus lowerCast(Lowering&);
LowerStatus lowerConstantOfShape(Lowering&);
LowerStatus lowerReduce(Lowering&);
LowerStatus lowerSoftmax(Lowering&);
LowerStatus lowerLogSoftmax(Lowering&);
LowerStatus lowerLayerNorm(Lowering&);
LowerStatus lowerRmsNorm(Lowering&);
LowerStatus lowerBatchNorm(Lowering&);
LowerStatus lowerInstanceNorm(Lowering&);
LowerStatus lowerLrn(Lowering&);
LowerStatus lowerMatMul(Lowering&);
LowerStatus lowerFusedMatMulBiasAct(Lowering&);
LowerStatus lowerGemm(Lowering&);
LowerStatus lowerAttention(Lowering&);
LowerStatus lowerConv(Lowering&);
LowerStatus lowerConvTranspose(Lowering&);
LowerStatus lowerPool(Lowering&);
LowerStatus lowerGlobalPool(Lowering&);
LowerStatus lowerFft(Lowering&);
LowerStatus lowerWelchPeaks(Lowering&);
LowerStatus lowerLogMel(Lowering&);

} // namespace costscope::vk
