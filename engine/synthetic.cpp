// SPDX-License-Identifier: MIT
#include "synthetic.h"

#include "half.h"
#include "ir/float_narrow.h"

#include <cstring>

namespace costscope {

namespace {
std::uint64_t splitMix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t hashAt(std::uint64_t seed, std::uint64_t i)
{
    return splitMix(splitMix(seed) ^ i);
}

// Uniform in [-0.05, 0.05).
double smallValue(std::uint64_t seed, std::uint64_t i)
{
    return (double(hashAt(seed, i) >> 11) / double(1ULL << 53) - 0.5) * 0.1;
}

template <class T>
void fillInts(HostTensor& t, std::uint64_t seed)
{
    auto v = t.values<T>();
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<T>(hashAt(seed, i) & 1);
}
} // namespace

void fillSynthetic(HostTensor& t, std::uint64_t seed)
{
    switch (t.dtype()) {
    case DType::F32: {
        auto v = t.values<float>();
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = static_cast<float>(smallValue(seed, i));
        return;
    }
    case DType::F64: {
        auto v = t.values<double>();
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = smallValue(seed, i);
        return;
    }
    case DType::F16:
    case DType::BF16: { // the F32 values rounded, so that a re-typed graph runs on the same weights
        auto v = t.values<std::uint16_t>();
        for (std::size_t i = 0; i < v.size(); ++i) {
            const auto f = static_cast<float>(smallValue(seed, i));
            v[i] = t.dtype() == DType::F16 ? floatToHalf(f) : floatToBf16(f);
        }
        return;
    }
    case DType::F8E4M3:
    case DType::F8E5M2: { // as F16 and BF16: the F32 values rounded
        auto v = t.values<std::uint8_t>();
        for (std::size_t i = 0; i < v.size(); ++i) {
            const auto f = static_cast<float>(smallValue(seed, i));
            v[i] = t.dtype() == DType::F8E4M3 ? floatToE4M3Bits(f) : floatToE5M2Bits(f);
        }
        return;
    }
    case DType::I64: fillInts<std::int64_t>(t, seed); return;
    case DType::I32: fillInts<std::int32_t>(t, seed); return;
    case DType::Bool:
    case DType::U8:
    case DType::I8: fillInts<std::uint8_t>(t, seed); return;
    default:
        return; // complex types stay zero
    }
}

HostTensor arangeInput(const std::vector<std::int64_t>& dims, DType dtype)
{
    HostTensor t(dims, dtype);
    const double n = static_cast<double>(t.elements());
    if (dtype == DType::F32) {
        auto v = t.values<float>();
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = static_cast<float>(double(i) / n);
    } else if (dtype == DType::F64) {
        auto v = t.values<double>();
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = double(i) / n;
    } else if (dtype == DType::F16 || dtype == DType::BF16) {
        auto v = t.values<std::uint16_t>();
        for (std::size_t i = 0; i < v.size(); ++i) {
            const auto f = static_cast<float>(double(i) / n);
            v[i] = dtype == DType::F16 ? floatToHalf(f) : floatToBf16(f);
        }
    }
    return t; // integer and bool inputs: arange(n)/n truncates to zero, which the constructor already wrote
}

Result<HostTensor> parameterValues(const Node& n, std::vector<std::int64_t> dims)
{
    HostTensor t(std::move(dims), n.shape.dtype);
    if (!n.data) {
        fillSynthetic(t, static_cast<std::uint64_t>(n.id));
        return t;
    }
    if (n.data->size() != t.byteSize())
        return Diagnostic::error("data holds " + std::to_string(n.data->size()) + " bytes, " + describe(t) + " needs "
                                 + std::to_string(t.byteSize()));
    if (!n.data->empty())
        std::memcpy(t.bytes(), n.data->data(), n.data->size());
    return t;
}

} // namespace costscope
