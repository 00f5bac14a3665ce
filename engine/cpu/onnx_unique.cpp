// SPDX-License-Identifier: MIT
// ONNX Unique: the distinct elements (or slices along `axis`) in sorted or first-seen order, and, as outputs 1 to 3
// (a node each), the index of each one's first occurrence, each element's index into them and how often each occurs.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace costscope::cpu {

KernelStatus runUnique(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const bool flat = !ctx.attrs().has("axis");
    auto axis = flat ? std::optional<std::int64_t>(0) : normalizeAxis(ctx.attrs().intOr("axis", 0), x.rank());
    if (!axis)
        return fail("Unique: axis out of range for " + describe(x));
    const auto a = static_cast<std::size_t>(*axis);
    const std::int64_t outer = flat ? 1 : product(x.dims(), 0, a),
                       n = flat ? static_cast<std::int64_t>(x.elements()) : x.dim(a);
    const std::int64_t inner = flat ? 1 : product(x.dims(), a + 1);
    const HostTensor wide = toF64(ctx.pool, x);
    auto slice = [&](std::int64_t j) {
        std::vector<double> s;
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t i = 0; i < inner; ++i)
                s.push_back(wide.values<double>()[static_cast<std::size_t>((o * n + j) * inner + i)]);
        return s;
    };
    std::vector<std::vector<double>> keys;
    std::vector<std::int64_t> first, inverse(static_cast<std::size_t>(n)), counts;
    for (std::int64_t j = 0; j < n; ++j) {
        const std::vector<double> key = slice(j);
        auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            keys.push_back(key);
            first.push_back(j);
            counts.push_back(0);
            it = keys.end() - 1;
        }
        inverse[static_cast<std::size_t>(j)] = it - keys.begin();
        ++counts[static_cast<std::size_t>(it - keys.begin())];
    }
    std::vector<std::int64_t> order(keys.size()); // position in the output -> first-seen index
    std::iota(order.begin(), order.end(), 0);
    if (ctx.attrs().intOr("sorted", 1) != 0)
        std::stable_sort(order.begin(), order.end(), [&](auto l, auto r) { return keys[l] < keys[r]; });
    std::vector<std::int64_t> rank(order.size());
    for (std::size_t p = 0; p < order.size(); ++p)
        rank[static_cast<std::size_t>(order[p])] = static_cast<std::int64_t>(p);
    const auto u = static_cast<std::int64_t>(order.size());
    std::vector<std::int64_t> result;
    switch (onnxOutput(ctx)) {
    case 0: {
        Dims dims = flat ? Dims{u} : x.dims();
        if (!flat)
            dims[a] = u;
        out.reset(dims, x.dtype());
        const std::size_t es = x.elementSize(), row = static_cast<std::size_t>(inner) * es;
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t p = 0; p < u; ++p)
                std::memcpy(
                    out.bytes() + static_cast<std::size_t>(o * u + p) * row,
                    x.bytes() + static_cast<std::size_t>(o * n + first[static_cast<std::size_t>(order[p])]) * row, row);
        return ok();
    }
    case 1:
        for (std::int64_t k : order)
            result.push_back(first[static_cast<std::size_t>(k)]);
        break;
    case 2:
        for (std::int64_t k : inverse)
            result.push_back(rank[static_cast<std::size_t>(k)]);
        break;
    case 3:
        for (std::int64_t k : order)
            result.push_back(counts[static_cast<std::size_t>(k)]);
        break;
    default:
        return fail("Unique has no output " + std::to_string(onnxOutput(ctx)));
    }
    out = HostTensor::fromBytes({static_cast<std::int64_t>(result.size())}, DType::I64, result.data(),
                                result.size() * sizeof(std::int64_t));
    return ok();
}

} // namespace costscope::cpu
