// SPDX-License-Identifier: MIT
#pragma once
// A CUDA device's compute capability, asked of the driver (two attribute reads, not cudaGetDeviceProperties).
#include <cuda_runtime.h>

namespace costscope::cuda {

// major · 10 + minor (90 on Hopper, 89 on Ada); 0 where the driver does not say (no device, an error cleared).
inline int computeCapability(int device)
{
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess
        || cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return major * 10 + minor;
}

} // namespace costscope::cuda
