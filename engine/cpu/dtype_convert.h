// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/thread_pool.h"
#include "tensor.h"

namespace costscope::cpu {

// Every element of `in` as dtype `to`, into `out` (given in's dims). Floats to integers truncate toward zero as C and
// ONNX Cast do (non-finite ones give 0), integers wrap, anything to Bool is "not zero", F16/BF16 round to nearest
// even. False, leaving `out` unspecified, when either dtype is complex.
bool convertTensor(ThreadPool& pool, const HostTensor& in, DType to, HostTensor& out);

// True for the dtypes convertTensor handles (every dtype but the complex ones).
bool isConvertible(DType t);

} // namespace costscope::cpu
