// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/kernel.h"

#include <optional>
#include <vector>

namespace costscope::cpu {

// ONNX tensors come in more dtypes than the kernels compute in: F16/BF16 everywhere, narrow and unsigned integers in
// the element-wise kernels, F64 and integers in the F32-only ones. The plan then runs the kernel on converted
// copies of the inputs and gives its output back in the dtype the graph states ("by conversion": F16 math is done in
// F32 and rounded once at the end, which is what ONNX's reference outputs are computed as too).
struct Precision {
    std::vector<std::optional<DType>> inputs; // per input: the dtype to convert it to, or none
    std::optional<DType> output;              // the dtype to convert the kernel's output to, or none

    bool needed() const;
};

// What node needs for the inputs it is given now (decided per run: a graph's stated dtypes may be wrong).
Precision precisionFor(const Node& node, const Inputs& in);
// Runs `kernel` as a plan runs a node: through converted copies of the inputs where precisionFor says so (`in`
// then points at them), the output given back in the dtype it names. `converted` holds the copies, reused between
// runs. The CPU plan and the CUDA backend's host steps (cuda/lower_host_fallback.cpp) both run kernels through it.
KernelStatus runConverted(KernelFn kernel, KernelContext& ctx, Inputs& in, HostTensor& out,
                          std::vector<HostTensor>& converted);

} // namespace costscope::cpu
