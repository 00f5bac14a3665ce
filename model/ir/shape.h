// SPDX-License-Identifier: MIT
#pragma once

#include "ir/dtype.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// Values bound to named symbols ("batch" = 8); used to resolve dynamic dims for costing and sweeps.
using Bindings = std::map<std::string, std::int64_t>;

// One dimension: a static size, or a named symbol such as "batch" or "seq".
struct Dim {
    std::int64_t value = 0;
    std::string symbol; // empty for a static dim

    static Dim fixed(std::int64_t v) { return Dim{v, {}}; }
    static Dim named(std::string s) { return Dim{0, std::move(s)}; }
    bool isStatic() const { return symbol.empty(); }
    std::optional<std::int64_t> resolve(const Bindings& b) const;
    std::string toString() const;
    friend bool operator==(const Dim&, const Dim&) = default;
};

inline constexpr std::size_t kMaxRank = 8;

// Shape and element type of a tensor.
struct Shape {
    std::vector<Dim> dims;
    DType dtype = DType::F32;

    static Shape of(std::vector<std::int64_t> dims, DType t = DType::F32);
    std::size_t rank() const { return dims.size(); }
    bool isStatic() const;
    // Element count with symbols resolved; nullopt when a symbol is unbound or the count overflows 64 bits.
    std::optional<std::uint64_t> elements(const Bindings& b = {}) const;
    std::optional<std::uint64_t> bytes(const Bindings& b = {}) const;
    // True when the element count or the byte count cannot be represented in 64 bits (for the bindings).
    bool overflows(const Bindings& b = {}) const;
    std::vector<std::string> symbols() const;
    std::string toString() const; // "F32[batch,3,224,224]"
    friend bool operator==(const Shape&, const Shape&) = default;
};

// Overflow-checked multiply; nullopt on overflow.
std::optional<std::uint64_t> checkedMul(std::uint64_t a, std::uint64_t b);

} // namespace costscope
