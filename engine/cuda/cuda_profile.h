// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "cuda/cuda_calibrate.h"

#include <string>

namespace costscope {

// A Costscope device profile from CUDA microbenchmarks: cuBLAS rates as the sgemm table (best = flat and peak),
// the im2col rate fitted to the backend's measured Conv nodes, device copy bandwidth as memory bandwidth, the
// in-graph kernel overhead as dispatch, pinned readback as host readback.
DeviceProfile profileFromCudaCalibration(const CudaCalibration& c, const std::string& name, const std::string& host,
                                         const std::string& date,
    const std::string& tool = "costscope-cli calibrate");

} // namespace costscope
