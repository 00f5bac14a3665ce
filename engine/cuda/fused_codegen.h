// SPDX-License-Identifier: MIT
#pragma once
// CUDA C++ source of one fused element-wise program, specialised for its ops, dims, strides and input types: the
// program becomes straight-line code over named registers, so nothing is indexed at run time (the interpreter of
// fused_elementwise.cu indexes its register array and spills it to local memory). NVRTC compiles it
// (fused_nvrtc.h); this part is plain C++ so that the tests can read what it writes.

#include "cuda/fused_kernels.h"

#include <string>

namespace costscope::cuda {

// The kernel's name in the source (extern "C", unmangled).
inline constexpr const char* kFusedKernelName = "costscope_fused";
inline constexpr int kFusedThreads = 256;

struct FusedSource {
    std::string code;
    // Output elements per thread: 4 when the innermost dim is a multiple of 4, every input walks it densely or not
    // at all, and the output is 16-byte aligned (float4 loads and stores), else 1.
    int vector = 1;
    std::int64_t threads = 0; // count / vector
};

// The kernel reads args.in[k] as its parameter k (in order) and writes its last parameter, a float*. Its pointers
// matter only for their alignment.
FusedSource fusedElementwiseSource(const FusedElementwiseArgs& args);

} // namespace costscope::cuda
