// SPDX-License-Identifier: MIT
#pragma once
// Fused element-wise programs compiled at plan time by NVRTC into one kernel each (fused_codegen.h writes the
// source), for the current device's architecture. Compiled kernels are kept for the process's lifetime, one per
// distinct source and architecture, so that the twelve identical layers of a transformer compile once.

#include "cuda/fused_kernels.h"
#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace costscope::cuda {

struct CompiledFused {
    cudaKernel_t kernel = nullptr;
    int vector = 1;
    std::int64_t threads = 0;
};

// Off when the build has no NVRTC or the environment sets COSTSCOPE_CUDA_NVRTC=0 (the interpreted kernel of
// fused_elementwise.cu runs instead); `why` says which.
bool nvrtcEnabled(std::string* why = nullptr);

// The device code (cubin) of a fused_codegen.h source for `arch` ("sm_90"); needs no GPU. An error carries NVRTC's
// log.
Result<std::vector<char>> compileFusedSource(const std::string& source, const std::string& arch);

// The kernel of `args`'s program, compiled or from the cache; an error names what NVRTC or the driver said.
Result<CompiledFused> compileFusedElementwise(const FusedElementwiseArgs& args);

// Launches it over `args`'s pointers (the same shapes, strides and types it was compiled for).
void launchCompiledFused(const CompiledFused& kernel, const FusedElementwiseArgs& args, cudaStream_t s);

} // namespace costscope::cuda
