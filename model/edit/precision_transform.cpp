// SPDX-License-Identifier: MIT
#include "edit/precision_transform.h"

#include "ir/float_narrow.h"

#include <cstring>
#include <memory>
#include <string>

namespace costscope::edit {

namespace {

DType storageOf(Precision p)
{
    switch (p) {
    case Precision::Fp16:
        return DType::F16;
    case Precision::Bf16:
        return DType::BF16;
    case Precision::Fp8:
        return DType::F8E4M3;
    default:
        return DType::F32;
    }
}

bool computesOnTensorCores(const Node& n)
{
    const OpClass c = n.op.info().opClass;
    return c == OpClass::MatMul || c == OpClass::Conv || c == OpClass::Attention;
}

// F32 data of `elements` values re-encoded in `to`; null when the data is not the F32 array the shape says.
TensorData convertData(const TensorData& data, DType to)
{
    if (!data || data->size() % 4 != 0)
        return nullptr;
    const std::size_t count = data->size() / 4;
    std::vector<std::uint8_t> out(count * byteSize(to));
    for (std::size_t i = 0; i < count; ++i) {
        float f = 0;
        std::memcpy(&f, data->data() + 4 * i, 4);
        if (to == DType::F8E4M3) {
            out[i] = floatToE4M3Bits(f);
            continue;
        }
        const std::uint16_t bits = to == DType::F16 ? floatToHalfBits(f) : floatToBf16Bits(f);
        std::memcpy(out.data() + 2 * i, &bits, 2);
    }
    return makeTensorData(std::move(out));
}

void retargetAttr(Node& n, const char* key, DType to)
{
    if (auto v = n.op.attrs.getString(key); v && *v == dtypeName(DType::F32))
        n.op.attrs.set(key, std::string(dtypeName(to)));
}

} // namespace

Result<Graph> withPrecision(const Graph& g, Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return g;
    case Precision::Int8:
        return Diagnostic::error("precision int8: an fp32 graph needs quantisation (scales and zero points, "
                                 "QuantizeLinear/DequantizeLinear) to run in int8, not a change of dtype");
    case Precision::Fp64:
        return Diagnostic::error("precision fp64: the what-if offers fp32, tf32, bf16, fp16 and fp8");
    default:
        break;
    }
    Graph out = g;
    if (p == Precision::Tf32) {
        for (Node& n : out.nodes) {
            if (!computesOnTensorCores(n))
                continue;
            bool f32 = false;
            for (NodeId in : n.inputs)
                if (const Node* src = g.find(in); src && src->shape.dtype == DType::F32)
                    f32 = true;
            if (f32)
                n.op.attrs.set(kComputePrecisionAttr, std::string(precisionName(Precision::Tf32)));
        }
        return out;
    }
    const DType to = storageOf(p);
    for (Node& n : out.nodes) {
        retargetAttr(n, "to", to);    // Cast
        retargetAttr(n, "dtype", to); // ConstantOfShape
        if (n.shape.dtype != DType::F32)
            continue;
        n.shape.dtype = to;
        if (n.data) {
            const auto elements = n.shape.elements();
            TensorData converted = convertData(n.data, to);
            if (!converted || (elements && *elements * 4 != n.data->size()))
                return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, n.displayName(),
                                          "its data (" + std::to_string(n.data->size())
                                              + " bytes) is not the F32 array of its shape "
                                              + g.find(n.id)->shape.toString());
            n.data = std::move(converted);
        }
    }
    out.invalidate();
    return out;
}

} // namespace costscope::edit
