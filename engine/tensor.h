// SPDX-License-Identifier: MIT
#pragma once

#include "ir/dtype.h"
#include "ir/shape.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace costscope {

// Heap bytes aligned for vector loads; keeps its capacity when resized smaller so that a plan reusing buffers
// across runs does not page-fault on every run.
class AlignedBuffer {
public:
    static constexpr std::size_t kAlignment = 64;

    AlignedBuffer() = default;
    explicit AlignedBuffer(std::size_t bytes);
    AlignedBuffer(const AlignedBuffer& o);
    AlignedBuffer& operator=(const AlignedBuffer& o);
    AlignedBuffer(AlignedBuffer&&) noexcept = default;
    AlignedBuffer& operator=(AlignedBuffer&&) noexcept = default;

    // Contents are unspecified after growing.
    void resize(std::size_t bytes);
    std::byte* data() { return m_data.get(); }
    const std::byte* data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }

private:
    struct Free {
        void operator()(std::byte* p) const;
    };
    std::unique_ptr<std::byte, Free> m_data;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
};

// A concrete tensor in host memory: dims, dtype and a dense row-major byte buffer.
class HostTensor {
public:
    HostTensor() = default;
    HostTensor(std::vector<std::int64_t> dims, DType dtype); // zero-filled

    static HostTensor fromBytes(std::vector<std::int64_t> dims, DType dtype, const void* bytes, std::size_t size);

    const std::vector<std::int64_t>& dims() const { return m_dims; }
    DType dtype() const { return m_dtype; }
    std::size_t rank() const { return m_dims.size(); }
    std::int64_t dim(std::size_t i) const { return m_dims[i]; }
    std::uint64_t elements() const;
    std::size_t byteSize() const { return m_buffer.size(); }
    std::size_t elementSize() const { return costscope::byteSize(m_dtype); }
    Shape shape() const { return Shape::of(m_dims, m_dtype); }

    // Gives the tensor new dims and dtype, reusing the buffer when it is large enough; contents unspecified.
    void reset(std::vector<std::int64_t> dims, DType dtype);
    // Same bytes, other dims (element counts must agree; false otherwise).
    bool setDims(std::vector<std::int64_t> dims);

    std::byte* bytes() { return m_buffer.data(); }
    const std::byte* bytes() const { return m_buffer.data(); }
    // Typed view; empty when T's size does not match the dtype's.
    template <class T>
    std::span<T> values()
    {
        if (sizeof(T) != elementSize())
            return {};
        return {reinterpret_cast<T*>(m_buffer.data()), static_cast<std::size_t>(elements())};
    }
    template <class T>
    std::span<const T> values() const
    {
        if (sizeof(T) != elementSize())
            return {};
        return {reinterpret_cast<const T*>(m_buffer.data()), static_cast<std::size_t>(elements())};
    }

    // Element i read as double whatever the dtype (integers, bools and floats of every width; 0 for complex).
    double valueAsDouble(std::uint64_t i) const;
    // Element i read as int64 (floats truncate).
    std::int64_t valueAsInt(std::uint64_t i) const;

private:
    std::vector<std::int64_t> m_dims;
    DType m_dtype = DType::F32;
    AlignedBuffer m_buffer;
};

// "F32[2,3]"
std::string describe(const HostTensor& t);
// The sum of every element (valueAsDouble): a number that tells two runs' outputs apart when their inputs or
// weights differ (a run JSON's "outputs"[i]["sum"], RunComparison::outputSums).
double elementSum(const HostTensor& t);

} // namespace costscope
