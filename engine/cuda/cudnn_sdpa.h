// SPDX-License-Identifier: MIT
#pragma once
// cuDNN's fused attention (SDPA) through cudnn_frontend's graph API, built where its headers and cudnn.h were found
// (COSTSCOPE_HAVE_CUDNN_FRONTEND). libcudnn is opened at run time (cudnn_frontend's dynamic loading), so the plugin
// does not depend on it: without it, or where cuDNN refuses a problem, attention runs on our kernels.
#include "cuda/cuda_plan.h"
#include "cuda/cudnn_sdpa_config.h"

namespace costscope::cuda {

// A launch of cuDNN's SDPA for `c` on a's q, k, v, mask and output. The graph is built once per config and plan (a
// model's layers share it) with its workspace, run once and captured once into a throw-away CUDA graph, so that what
// the plan captures later runs. The error says why not, in a few words (libcudnn missing, cuDNN's refusal).
Result<Launch> cudnnSdpaLaunch(CudaPlan& plan, const SdpaConfig& c, const AttentionArgs& a, std::size_t node);

} // namespace costscope::cuda
