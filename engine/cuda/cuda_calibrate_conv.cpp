// SPDX-License-Identifier: MIT
// The Conv part of the CUDA calibration: the backend's own Conv lowering (im2col + cuBLAS, chunked past 4 GiB of
// columns) timed over layers typical of the CNNs Costscope is used on. It runs far below cuBLAS's sgemm rate at
// the same GEMM volume because writing the column matrix dominates; profileFromCudaCalibration fits the im2col
// rate the cost model adds to the GEMM from these points.
#include "cuda/cuda_backend.h"
#include "cuda/cuda_calibrate.h"

namespace costscope {

Result<std::vector<CudaCalibration::ConvPoint>> calibrateCudaConv(int device, int repeats)
{
    CudaBackend backend;
    return timeConvLayers(backend, device, typicalConvLayers(), repeats);
}

} // namespace costscope
