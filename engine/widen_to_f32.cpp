// SPDX-License-Identifier: MIT
#include "widen_to_f32.h"

#include "half.h"
#include "ir/float_narrow.h"

#include <cstring>
#include <memory>
#include <string>

namespace costscope {

namespace {

bool retargetsNarrow(const Node& n, const char* key)
{
    const auto v = n.op.attrs.getString(key);
    if (!v)
        return false;
    for (DType t : {DType::F16, DType::BF16, DType::F8E4M3, DType::F8E5M2})
        if (*v == dtypeName(t))
            return true;
    return false;
}

// count values of narrow float dtype `from` at `in` written as floats to `out` (exact).
void widen(DType from, const std::byte* in, std::size_t count, float* out)
{
    for (std::size_t i = 0; i < count; ++i) {
        std::uint16_t h = 0;
        if (byteSize(from) == 2)
            std::memcpy(&h, in + 2 * i, 2);
        const auto b = static_cast<std::uint8_t>(in[i]);
        switch (from) {
        case DType::F16:
            out[i] = halfToFloat(h);
            break;
        case DType::BF16:
            out[i] = bf16ToFloat(h);
            break;
        case DType::F8E4M3:
            out[i] = e4m3BitsToFloat(b);
            break;
        default:
            out[i] = e5m2BitsToFloat(b);
            break;
        }
    }
}

} // namespace

bool isNarrowFloat(DType t)
{
    return t == DType::F16 || t == DType::BF16 || t == DType::F8E4M3 || t == DType::F8E5M2;
}

bool hasNarrowFloats(const Graph& g)
{
    for (const Node& n : g.nodes)
        if (isNarrowFloat(n.shape.dtype) || retargetsNarrowFloat(n))
            return true;
    return false;
}

HostTensor widenedToF32(const HostTensor& t)
{
    if (!isNarrowFloat(t.dtype()))
        return t;
    HostTensor out(t.dims(), DType::F32);
    widen(t.dtype(), t.bytes(), static_cast<std::size_t>(t.elements()), out.values<float>().data());
    return out;
}

bool retargetsNarrowFloat(const Node& n)
{
    return retargetsNarrow(n, "to") || retargetsNarrow(n, "dtype");
}

void widenNodeToF32(Node& n)
{
    const std::string f32(dtypeName(DType::F32));
    for (const char* key : {"to", "dtype"}) // Cast, ConstantOfShape
        if (retargetsNarrow(n, key))
            n.op.attrs.set(key, f32);
    if (!isNarrowFloat(n.shape.dtype))
        return;
    const DType from = n.shape.dtype;
    n.shape.dtype = DType::F32;
    if (!n.data || n.data->size() % byteSize(from) != 0)
        return; // no data (synthetic weights) or not the array of its shape: the plan reports the size
    const std::size_t count = n.data->size() / byteSize(from);
    std::vector<std::uint8_t> bytes(count * 4);
    std::vector<float> wide(count);
    widen(from, reinterpret_cast<const std::byte*>(n.data->data()), count, wide.data());
    std::memcpy(bytes.data(), wide.data(), count * 4);
    n.data = makeTensorData(std::move(bytes));
}

Graph widenedToF32(const Graph& g)
{
    Graph out = g;
    for (Node& n : out.nodes)
        widenNodeToF32(n);
    out.invalidate();
    return out;
}

} // namespace costscope
