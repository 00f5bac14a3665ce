// SPDX-License-Identifier: MIT
#include "cpu/narrow_round.h"

#include "cpu/dtype_convert.h"

namespace costscope::cpu {

Result<std::optional<NarrowType>> narrowTarget(const KernelContext& ctx, const char* op)
{
    auto name = ctx.attrs().getString("onnx_to");
    if (!name)
        return std::optional<NarrowType>{};
    auto t = parseNarrowType(*name);
    if (!t)
        return Diagnostic::error(std::string(op) + ": the CPU backend has no " + *name + " type");
    if (*t == NarrowType::F8E8M0 && ctx.attrs().stringOr("round_mode", "up") != "up")
        return Diagnostic::error(std::string(op) + ": round_mode '" + ctx.attrs().stringOr("round_mode", "")
                                 + "' to FLOAT8E8M0 is not supported on the CPU backend (only 'up')");
    return std::optional<NarrowType>{*t};
}

bool saturateAttr(const KernelContext& ctx)
{
    if (auto b = ctx.attrs().getBool("saturate"))
        return *b;
    return ctx.attrs().intOr("saturate", 1) != 0;
}

KernelStatus writeNarrow(KernelContext& ctx, HostTensor& wide, NarrowType t, bool saturate, HostTensor& out)
{
    auto values = wide.values<double>();
    ctx.pool.parallelFor(static_cast<std::int64_t>(values.size()), 1 << 14, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t i = s; i < e; ++i)
            values[static_cast<std::size_t>(i)] = castToNarrow(t, values[static_cast<std::size_t>(i)], saturate);
    });
    // Exact: the carrier holds every value of t.
    if (!convertTensor(ctx.pool, wide, carrierOf(t), out))
        return fail("cannot write " + std::string(narrowTypeName(t)) + " values as "
                    + std::string(dtypeName(carrierOf(t))));
    return ok();
}

} // namespace costscope::cpu
