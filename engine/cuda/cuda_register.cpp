// SPDX-License-Identifier: MIT
#include "cuda/cuda_register.h"
#include "cuda/cuda_backend.h"

namespace costscope {

std::unique_ptr<Backend> makeCudaBackend()
{
    return std::make_unique<CudaBackend>();
}

} // namespace costscope
