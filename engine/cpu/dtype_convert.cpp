// SPDX-License-Identifier: MIT
#include "cpu/dtype_convert.h"

#include "half.h"
#include "ir/float_narrow.h"

#include <cmath>
#include <cstring>

namespace costscope::cpu {

namespace {
bool isIntegral(DType t)
{
    return !isFloating(t);
}

template <class T>
void put(std::byte* dst, std::uint64_t i, T v)
{
    std::memcpy(dst + i * sizeof(T), &v, sizeof(T));
}

// A float as int64 the way a C cast would give it where that is defined; 0 where it is not.
std::int64_t truncated(double d)
{
    if (!std::isfinite(d) || d <= -9.3e18 || d >= 1.85e19)
        return 0;
    if (d >= 9.2e18) // above int64's range: through uint64, which wraps into the same bits
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(d));
    return static_cast<std::int64_t>(d);
}

void storeInt(std::byte* dst, std::uint64_t i, DType to, std::int64_t v)
{
    switch (to) {
    case DType::I8: put(dst, i, static_cast<std::int8_t>(v)); break;
    case DType::U8: put(dst, i, static_cast<std::uint8_t>(v)); break;
    case DType::I16: put(dst, i, static_cast<std::int16_t>(v)); break;
    case DType::I32: put(dst, i, static_cast<std::int32_t>(v)); break;
    case DType::U32: put(dst, i, static_cast<std::uint32_t>(v)); break;
    case DType::I64: put(dst, i, v); break;
    default: break;
    }
}

void storeFloat(std::byte* dst, std::uint64_t i, DType to, double v)
{
    switch (to) {
    case DType::F32: put(dst, i, static_cast<float>(v)); break;
    case DType::F64: put(dst, i, v); break;
    case DType::F16: put(dst, i, floatToHalf(static_cast<float>(v))); break;
    case DType::BF16: put(dst, i, floatToBf16(static_cast<float>(v))); break;
    case DType::F8E4M3:
        put(dst, i, floatToE4M3Bits(static_cast<float>(v)));
        break;
    case DType::F8E5M2:
        put(dst, i, floatToE5M2Bits(static_cast<float>(v)));
        break;
    default: break;
    }
}

void convertOne(const HostTensor& in, std::uint64_t i, DType to, std::byte* dst)
{
    const DType from = in.dtype();
    if (to == DType::Bool) {
        put(dst, i, static_cast<std::uint8_t>(in.valueAsDouble(i) != 0.0 ? 1 : 0));
        return;
    }
    if (isIntegral(from)) {
        const std::int64_t v = in.valueAsInt(i);
        if (isIntegral(to))
            storeInt(dst, i, to, v);
        else
            storeFloat(dst, i, to, static_cast<double>(v));
        return;
    }
    const double d = in.valueAsDouble(i);
    if (isIntegral(to))
        storeInt(dst, i, to, truncated(d));
    else
        storeFloat(dst, i, to, d);
}
} // namespace

bool isConvertible(DType t)
{
    return t != DType::C64 && t != DType::C128;
}

bool convertTensor(ThreadPool& pool, const HostTensor& in, DType to, HostTensor& out)
{
    if (!isConvertible(in.dtype()) || !isConvertible(to))
        return false;
    out.reset(in.dims(), to);
    std::byte* dst = out.bytes();
    pool.parallelFor(static_cast<std::int64_t>(in.elements()), 1 << 14, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t i = s; i < e; ++i)
            convertOne(in, static_cast<std::uint64_t>(i), to, dst);
    });
    return true;
}

} // namespace costscope::cpu
