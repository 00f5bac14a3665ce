// SPDX-License-Identifier: MIT
#include "cpu/wide_values.h"

#include "cpu/dtype_convert.h"

namespace costscope::cpu {

HostTensor toF64(ThreadPool& pool, const HostTensor& t)
{
    if (t.dtype() == DType::F64)
        return t;
    HostTensor wide;
    if (!convertTensor(pool, t, DType::F64, wide))
        return HostTensor(t.dims(), DType::F64);
    return wide;
}

KernelStatus fromWide(KernelContext& ctx, const HostTensor& wide, DType to, HostTensor& out)
{
    if (wide.dtype() == to) {
        out = wide;
        return ok();
    }
    if (!convertTensor(ctx.pool, wide, to, out))
        return fail("cannot write " + std::string(dtypeName(to)));
    return ok();
}

} // namespace costscope::cpu
