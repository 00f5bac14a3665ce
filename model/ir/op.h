// SPDX-License-Identifier: MIT
#pragma once

#include "ir/attribute.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// Every op Costscope knows. RLX's seeds first, then what ONNX imports need; Unknown keeps any other op.
enum class OpKind : std::uint8_t {
    Input, Param, Constant,
    MatMul, FusedMatMulBiasAct, Attention, Fft, LogMel, WelchPeaks, Custom,
    Binary, Activation, Compare, Cast, Where,
    Reshape, Transpose, Narrow, Slice, Concat, Expand, Gather,
    Reduce, Softmax, LayerNorm, RmsNorm, Conv, Pool,
    Gemm, BatchNorm, Lrn, GlobalPool, Dropout, Sum, Unsqueeze, Squeeze, Flatten, ConstantOfShape,
    Pad, Clip, Tile, ConvTranspose, InstanceNorm, LogSoftmax, GatherElements, Identity,
    Unknown,
};

// What kind of work an op does; the cost models and the canvas group ops by it.
enum class OpClass : std::uint8_t {
    Leaf, Layout, ElementWise, MatMul, Conv, Pool, Norm, Reduce, Softmax, Attention, Spectral, Gather, Custom,
    Unknown,
};

// How RLX HIR JSON writes the op's payload: "MatMul" (Unit), {"Binary": "Add"} (Scalar, kept in attr "op"),
// or {"Conv": {...}} (Struct, one attribute per key).
enum class PayloadForm : std::uint8_t { Unit, Scalar, Struct };

struct OpInfo {
    OpKind kind;
    std::string_view name;
    OpClass opClass;
    int minInputs;
    int maxInputs; // -1: any number
    PayloadForm form;
    bool hostSync;     // forces a host round trip (RLX's sync-point ops)
    bool rlxMetadata;  // skipped entirely by RLX's IO profile
};

const OpInfo& opInfo(OpKind kind);
std::optional<OpKind> opKindFromName(std::string_view name);
const std::vector<OpInfo>& opCatalogue();
std::string_view opClassName(OpClass c);

struct Op {
    OpKind kind = OpKind::Unknown;
    std::string name;    // catalogue name; for an unknown op, the name it was written with
    Attrs attrs;
    std::string unknownPayload; // an unknown op's payload as JSON text, written back verbatim

    static Op make(OpKind kind, Attrs attrs = {});
    static Op unknown(std::string name, std::string payloadJson = {});
    // Binary/Activation/Compare sub-op ("Add", "Relu", "Le"), or "" for other ops.
    std::string subOp() const { return attrs.stringOr("op", {}); }
    const OpInfo& info() const { return opInfo(kind); }
    // "Binary.Add", "Conv", or the unknown op's own name.
    std::string label() const;
    friend bool operator==(const Op&, const Op&) = default;
};

} // namespace costscope
