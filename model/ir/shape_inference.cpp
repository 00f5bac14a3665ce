// SPDX-License-Identifier: MIT
#include "ir/shape_inference.h"

#include "ir/shape_infer_util.h"

namespace costscope {

using namespace shape_rules;

namespace {
Diagnostic noRule(std::string msg)
{
    return Diagnostic::warning(std::move(msg));
}

Result<Shape> dispatch(const InferInput& x)
{
    switch (x.op.info().opClass) {
    case OpClass::Leaf: return noRule("leaf");
    case OpClass::Unknown:
    case OpClass::Custom: return noRule("no shape rule for op " + x.op.name);
    case OpClass::MatMul:
    case OpClass::Attention: return inferLinear(x);
    case OpClass::Conv:
    case OpClass::Pool: return inferConv(x);
    case OpClass::Layout:
        if (x.op.kind == OpKind::Dropout || x.op.kind == OpKind::Identity)
            return inferElementwise(x);
        if (x.op.kind == OpKind::Narrow || x.op.kind == OpKind::Slice || x.op.kind == OpKind::Pad
            || x.op.kind == OpKind::Tile || x.op.kind == OpKind::ConstantOfShape)
            return inferIndexing(x);
        return inferLayout(x);
    case OpClass::Gather: return inferIndexing(x);
    case OpClass::ElementWise: return inferElementwise(x);
    case OpClass::Norm:
    case OpClass::Reduce:
    case OpClass::Softmax: return inferNormalise(x);
    case OpClass::Spectral: return inferSpectral(x);
    }
    return noRule("no shape rule for op " + x.op.name);
}

std::string arityText(const OpInfo& info)
{
    if (info.maxInputs < 0)
        return "at least " + std::to_string(info.minInputs);
    if (info.minInputs == info.maxInputs)
        return std::to_string(info.minInputs);
    return std::to_string(info.minInputs) + " to " + std::to_string(info.maxInputs);
}

// A derived symbol ("seq+2") names no size a file can state, so it is not compared.
bool isPlainSymbol(const Dim& d)
{
    return !d.isStatic() && d.symbol.find_first_of("+-*/()") == std::string::npos;
}

bool sameShape(const Shape& stated, const Shape& inferred)
{
    if (stated.dtype != inferred.dtype || stated.rank() != inferred.rank())
        return false;
    for (std::size_t i = 0; i < stated.rank(); ++i) {
        const Dim& s = stated.dims[i];
        const Dim& f = inferred.dims[i];
        if (s == f || (!f.isStatic() && !isPlainSymbol(f)))
            continue;
        // A static dim against a symbol is left alone: the symbol may be bound to that size.
        if (s.isStatic() != f.isStatic())
            continue;
        return false;
    }
    return true;
}
} // namespace

Result<Shape> inferShape(const Op& op, const std::vector<Shape>& inputs, const std::vector<const Node*>& inputNodes)
{
    const InferInput x{op, inputs, inputNodes};
    const OpInfo& info = op.info();
    const int count = static_cast<int>(inputs.size());
    if (info.opClass != OpClass::Leaf && info.opClass != OpClass::Unknown && info.opClass != OpClass::Custom
        && (count < info.minInputs || (info.maxInputs >= 0 && count > info.maxInputs)))
        return x.fail("takes " + arityText(info) + " input(s), has " + std::to_string(count));
    auto out = dispatch(x);
    if (!out)
        return out;
    if (out->rank() > kMaxRank)
        return x.fail("result " + out->toString() + " has rank over " + std::to_string(kMaxRank));
    for (const Dim& d : out->dims)
        if (d.isStatic() && (d.value < 0 || d.value > kMaxDim))
            return x.fail("result dim " + std::to_string(d.value) + " is outside 0..2^62");
    return out;
}

Diagnostics checkStatedShapes(const Graph& g)
{
    Diagnostics out;
    auto order = g.topologicalOrder();
    if (!order)
        return out;
    for (std::size_t pos : *order) {
        const Node& n = g.nodes[pos];
        const OpClass cls = n.op.info().opClass;
        if (cls == OpClass::Leaf || cls == OpClass::Unknown || cls == OpClass::Custom)
            continue;
        std::vector<Shape> shapes;
        std::vector<const Node*> nodes;
        for (NodeId id : n.inputs) {
            const Node* in = g.find(id);
            if (!in)
                break;
            shapes.push_back(in->shape);
            nodes.push_back(in);
        }
        if (nodes.size() != n.inputs.size())
            continue;
        auto inferred = inferShape(n.op, shapes, nodes);
        if (!inferred) {
            if (inferred.error().isError())
                out.push_back(Diagnostic::atNode(Diagnostic::Severity::Warning, n.id, n.displayName(),
                                                 "inputs do not fit: " + inferred.error().message));
            continue;
        }
        if (!sameShape(n.shape, *inferred))
            out.push_back(Diagnostic::atNode(Diagnostic::Severity::Warning, n.id, n.displayName(),
                                             "stated shape " + n.shape.toString() + " but inputs give "
                                                 + inferred->toString()));
    }
    return out;
}

} // namespace costscope
