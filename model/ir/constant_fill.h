// SPDX-License-Identifier: MIT
#pragma once
// What a ConstantOfShape writes, in one place for the two that write it: the constant fold (ir/constant_fold.h),
// which makes the tensor once when a graph is compiled, and the CPU kernel, which makes it on every run.
#include "ir/graph.h"

#include <cstdint>
#include <optional>

namespace costscope {

// The element type a ConstantOfShape fills: its "dtype" attribute where set, else the node's own dtype. Empty where
// the attribute names no dtype.
std::optional<DType> constantFillDType(const Node& node);

// The value a ConstantOfShape fills with (its "value" attribute, 0 where absent).
double constantFillValue(const Node& node);

// Whether fillElements can write this dtype: F32, F64, I64, I32, Bool, U8.
bool isFillableDType(DType dtype);

// Writes `value`, converted to `dtype` (Bool and U8 as one byte), into elements [begin, end) of `dst`, a buffer of
// that dtype. Does nothing and returns false for a dtype that isFillableDType refuses.
bool fillElements(void* dst, DType dtype, double value, std::uint64_t begin, std::uint64_t end);

} // namespace costscope
