// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Shared by the per-family shape rules (shape_infer_*.cpp); not part of the model's public API.
namespace costscope::shape_rules {

// Largest static dim a rule may produce; anything above is reported as an overflow naming the op.
inline constexpr std::int64_t kMaxDim = std::int64_t{1} << 62;

struct InferInput {
    const Op& op;
    const std::vector<Shape>& in;
    const std::vector<const Node*>& nodes;

    std::string label() const { return op.label(); }
    // "Conv: <msg>": the op-prefixed error every rule returns.
    Diagnostic fail(const std::string& msg) const;
    // An error that means "cannot tell" rather than "does not fit" (a value input without data); carries Warning
    // severity so that checkStatedShapes can skip the node instead of reporting it.
    Diagnostic unknowable(const std::string& msg) const;
    // Integers from attribute `key`, else from the data of input `inputIndex` (ONNX passes axes, shapes and pads as
    // I64/I32 tensors), else nullopt.
    std::optional<std::vector<std::int64_t>> intsFrom(const std::string& key, std::size_t inputIndex) const;
    bool flag(const std::string& key, bool dflt) const;
};

// Normalises a possibly negative axis into [0, rank); nullopt when out of range.
std::optional<std::size_t> normaliseAxis(std::int64_t axis, std::size_t rank);
// Same, with the "axis A is out of range for rank R" error prefixed by the op.
Result<std::size_t> axisOrError(const InferInput& x, std::int64_t axis, std::size_t rank);

// Numpy broadcasting of two shapes; dtype of `a`. A symbol against 1 gives the symbol, against another static the
// static (no error: the symbol may be bound to it).
Result<Shape> broadcast(const InferInput& x, const Shape& a, const Shape& b);

// Overflow-checked dim arithmetic. Symbolic operands give a derived symbol ("seq+2", "batch*4") so that the size
// stays visible; nullopt when static arithmetic overflows or leaves [0, kMaxDim].
std::optional<Dim> addDims(const Dim& a, const Dim& b);
std::optional<Dim> mulDims(const Dim& a, const Dim& b);
std::optional<Dim> offsetDim(const Dim& a, std::int64_t delta);
// A fresh symbol describing a computed size that cannot be simplified ("conv(h)").
Dim derivedDim(const std::string& fn, const Dim& a);

// Reads the tensor data of a value input as integers (I64 or I32); nullopt when absent or another dtype.
std::optional<std::vector<std::int64_t>> intsOfNode(const Node* n);

Result<Shape> inferElementwise(const InferInput& x);
Result<Shape> inferLinear(const InferInput& x);
Result<Shape> inferConv(const InferInput& x);
Result<Shape> inferLayout(const InferInput& x);
Result<Shape> inferIndexing(const InferInput& x);
Result<Shape> inferNormalise(const InferInput& x);
Result<Shape> inferSpectral(const InferInput& x);

} // namespace costscope::shape_rules
