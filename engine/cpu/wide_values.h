// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/kernel.h"

namespace costscope::cpu {

// ONNX-only kernels move few values and compute in one wide dtype whatever they are given: F64 for values, I64 for
// indices. These convert into it (F16 and BF16 included, which valueAsDouble does not read) and back.
HostTensor toF64(ThreadPool& pool, const HostTensor& t);
// The I64 or F64 result of a kernel given in the output's dtype.
KernelStatus fromWide(KernelContext& ctx, const HostTensor& wide, DType to, HostTensor& out);

} // namespace costscope::cpu
