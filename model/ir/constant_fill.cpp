// SPDX-License-Identifier: MIT
#include "ir/constant_fill.h"

#include <algorithm>

namespace costscope {

namespace {

template <class T>
void fillAs(void* dst, double value, std::uint64_t begin, std::uint64_t end)
{
    T* typed = static_cast<T*>(dst);
    std::fill(typed + begin, typed + end, static_cast<T>(value));
}

} // namespace

std::optional<DType> constantFillDType(const Node& node)
{
    if (auto name = node.op.attrs.getString("dtype"))
        return parseDType(*name);
    return node.shape.dtype;
}

double constantFillValue(const Node& node)
{
    return node.op.attrs.doubleOr("value", 0.0);
}

bool isFillableDType(DType dtype)
{
    switch (dtype) {
    case DType::F32:
    case DType::F64:
    case DType::I64:
    case DType::I32:
    case DType::Bool:
    case DType::U8:
        return true;
    default:
        return false;
    }
}

bool fillElements(void* dst, DType dtype, double value, std::uint64_t begin, std::uint64_t end)
{
    switch (dtype) {
    case DType::F32:
        fillAs<float>(dst, value, begin, end);
        return true;
    case DType::F64:
        fillAs<double>(dst, value, begin, end);
        return true;
    case DType::I64:
        fillAs<std::int64_t>(dst, value, begin, end);
        return true;
    case DType::I32:
        fillAs<std::int32_t>(dst, value, begin, end);
        return true;
    case DType::Bool:
    case DType::U8:
        fillAs<std::uint8_t>(dst, value, begin, end);
        return true;
    default:
        return false;
    }
}

} // namespace costscope
