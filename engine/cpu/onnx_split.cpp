// SPDX-License-Identifier: MIT
// ONNX Split whose sizes are known only at run time (opset 18's num_outputs, or equal parts of a computed dim): a node
// per output, each copying its part.
#include "cpu/onnx_named_kernels.h"

#include <cstring>

namespace costscope::cpu {

KernelStatus runSplitOutput(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto axis = normalizeAxis(ctx.attrs().intOr("axis", 0), x.rank());
    if (!axis)
        return fail("Split: axis is out of range for " + describe(x));
    const auto a = static_cast<std::size_t>(*axis);
    const std::int64_t which = onnxOutput(ctx), dim = x.dim(a);
    Dims sizes;
    if (auto given = intsFromAttrOrInput(ctx, in, "split", 1); given && !given->empty()) {
        sizes = *given;
    } else {
        const std::int64_t parts = ctx.attrs().intOr("num_outputs", ctx.attrs().intOr("onnx_output_count", 1));
        const std::int64_t chunk = parts > 0 ? (dim + parts - 1) / parts : 0;
        for (std::int64_t i = 0; i < parts; ++i)
            sizes.push_back(std::max<std::int64_t>(0, std::min(chunk, dim - i * chunk)));
    }
    if (which < 0 || which >= static_cast<std::int64_t>(sizes.size()))
        return fail("Split: no output " + std::to_string(which) + " of " + std::to_string(sizes.size()));
    std::int64_t start = 0;
    for (std::int64_t i = 0; i < which; ++i)
        start += sizes[static_cast<std::size_t>(i)];
    const std::int64_t len = sizes[static_cast<std::size_t>(which)];
    if (start + len > dim || len < 0)
        return fail("Split: sizes " + dimsString(sizes) + " do not fit " + describe(x) + " along axis "
                    + std::to_string(a));
    Dims dims = x.dims();
    dims[a] = len;
    out.reset(dims, x.dtype());
    const std::int64_t outer = product(x.dims(), 0, a), inner = product(x.dims(), a + 1);
    const std::size_t es = x.elementSize();
    for (std::int64_t o = 0; o < outer; ++o)
        std::memcpy(out.bytes() + static_cast<std::size_t>(o * len * inner) * es,
                    x.bytes() + static_cast<std::size_t>((o * dim + start) * inner) * es,
                    static_cast<std::size_t>(len * inner) * es);
    return ok();
}

} // namespace costscope::cpu
