// SPDX-License-Identifier: MIT
#include "tensor.h"
#include "half.h"
#include "ir/float_narrow.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace costscope {

void AlignedBuffer::Free::operator()(std::byte* p) const
{
    std::free(p);
}

AlignedBuffer::AlignedBuffer(std::size_t bytes)
{
    resize(bytes);
    if (bytes)
        std::memset(data(), 0, bytes);
}

AlignedBuffer::AlignedBuffer(const AlignedBuffer& o)
{
    resize(o.m_size);
    if (m_size)
        std::memcpy(data(), o.data(), m_size);
}

AlignedBuffer& AlignedBuffer::operator=(const AlignedBuffer& o)
{
    if (this != &o) {
        resize(o.m_size);
        if (m_size)
            std::memcpy(data(), o.data(), m_size);
    }
    return *this;
}

void AlignedBuffer::resize(std::size_t bytes)
{
    if (bytes > m_capacity || !m_data) {
        // Never null, even when empty: memcpy and friends must not get a null pointer.
        const std::size_t rounded =
            std::max<std::size_t>((bytes + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
        m_data.reset(static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded)));
        m_capacity = m_data ? rounded : 0;
        if (!m_data) { // callers write `bytes` bytes next: a null buffer would crash them far from the cause
            m_size = 0;
            throw std::bad_alloc();
        }
    }
    m_size = bytes;
}

HostTensor::HostTensor(std::vector<std::int64_t> dims, DType dtype) : m_dims(std::move(dims)), m_dtype(dtype)
{
    m_buffer = AlignedBuffer(static_cast<std::size_t>(elements()) * elementSize());
}

HostTensor HostTensor::fromBytes(std::vector<std::int64_t> dims, DType dtype, const void* bytes, std::size_t size)
{
    HostTensor t(std::move(dims), dtype);
    std::memcpy(t.bytes(), bytes, std::min(size, t.byteSize()));
    return t;
}

std::uint64_t HostTensor::elements() const
{
    std::uint64_t n = 1;
    for (std::int64_t d : m_dims)
        n *= static_cast<std::uint64_t>(d < 0 ? 0 : d);
    return n;
}

void HostTensor::reset(std::vector<std::int64_t> dims, DType dtype)
{
    m_dims = std::move(dims);
    m_dtype = dtype;
    m_buffer.resize(static_cast<std::size_t>(elements()) * elementSize());
}

bool HostTensor::setDims(std::vector<std::int64_t> dims)
{
    std::uint64_t n = 1;
    for (std::int64_t d : dims)
        n *= static_cast<std::uint64_t>(d < 0 ? 0 : d);
    if (n != elements())
        return false;
    m_dims = std::move(dims);
    return true;
}

namespace {
template <class T>
T load(const std::byte* p, std::uint64_t i)
{
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return v;
}
} // namespace

double HostTensor::valueAsDouble(std::uint64_t i) const
{
    const std::byte* p = bytes();
    switch (m_dtype) {
    case DType::Bool:
    case DType::U8: return load<std::uint8_t>(p, i);
    case DType::I8: return load<std::int8_t>(p, i);
    case DType::I16: return load<std::int16_t>(p, i);
    case DType::I32: return load<std::int32_t>(p, i);
    case DType::U32: return load<std::uint32_t>(p, i);
    case DType::I64: return static_cast<double>(load<std::int64_t>(p, i));
    case DType::F32: return load<float>(p, i);
    case DType::F64: return load<double>(p, i);
    case DType::F16: return halfToFloat(load<std::uint16_t>(p, i));
    case DType::BF16: return bf16ToFloat(load<std::uint16_t>(p, i));
    case DType::F8E4M3:
        return e4m3BitsToFloat(load<std::uint8_t>(p, i));
    case DType::F8E5M2:
        return e5m2BitsToFloat(load<std::uint8_t>(p, i));
    default: return 0.0;
    }
}

std::int64_t HostTensor::valueAsInt(std::uint64_t i) const
{
    if (m_dtype == DType::I64)
        return load<std::int64_t>(bytes(), i);
    return static_cast<std::int64_t>(valueAsDouble(i));
}

std::string describe(const HostTensor& t)
{
    return t.shape().toString();
}

double elementSum(const HostTensor& t)
{
    double sum = 0;
    for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(t.elements()); ++i)
        sum += t.valueAsDouble(i);
    return sum;
}

} // namespace costscope
