// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace costscope {

// Raw little-endian tensor bytes: owned, or a read-only view of memory that an owner object keeps alive (a
// memory-mapped external data file), so that a model's gigabytes of weights are never copied when it loads.
class TensorBytes {
public:
    TensorBytes() = default;
    explicit TensorBytes(std::vector<std::uint8_t> owned) : m_owned(std::move(owned)) {}
    TensorBytes(const std::uint8_t* data, std::size_t size, std::shared_ptr<const void> owner)
        : m_view(data), m_viewSize(size), m_owner(std::move(owner))
    {
    }

    const std::uint8_t* data() const { return m_owner ? m_view : m_owned.data(); }
    std::size_t size() const { return m_owner ? m_viewSize : m_owned.size(); }
    bool empty() const { return size() == 0; }
    const std::uint8_t* begin() const { return data(); }
    const std::uint8_t* end() const { return data() + size(); }
    // True when the bytes live in memory the owner keeps (a mapped file), not in this object.
    bool isView() const { return m_owner != nullptr; }
    bool operator==(const TensorBytes& o) const;

private:
    std::vector<std::uint8_t> m_owned;
    const std::uint8_t* m_view = nullptr;
    std::size_t m_viewSize = 0;
    std::shared_ptr<const void> m_owner;
};

// Tensor bytes shared between copies of a graph.
using TensorData = std::shared_ptr<const TensorBytes>;

inline TensorData makeTensorData(std::vector<std::uint8_t> bytes)
{
    return std::make_shared<const TensorBytes>(std::move(bytes));
}

} // namespace costscope
