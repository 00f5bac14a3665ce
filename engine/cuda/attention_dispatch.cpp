// SPDX-License-Identifier: MIT
#include "cuda/cuda_lower.h"
#include "cuda/cudnn_sdpa_config.h"
#ifdef COSTSCOPE_HAVE_CUDNN_FRONTEND
#include "cuda/cudnn_sdpa.h"
#endif

namespace costscope::cuda {

LowerResult attentionLaunch(CudaPlan& plan, const AttentionArgs& a, std::size_t node, std::string& kernel)
{
    kernel.clear();
    if (a.storage == ElemType::F16 || a.storage == ElemType::BF16) {
        std::string why;
        if (auto config = sdpaConfigFor(a); !config) {
            why = config.error().message;
        } else if (!cudnnRequested()) {
            why = "COSTSCOPE_CUDNN=off";
        } else {
#ifdef COSTSCOPE_HAVE_CUDNN_FRONTEND
            auto launch = cudnnSdpaLaunch(plan, *config, a, node);
            if (launch) {
                kernel = "cudnn_sdpa";
                return launch;
            }
            why = launch.error().message;
#else
            (void)plan;
            (void)node;
            why = "built without cudnn_frontend";
#endif
        }
        kernel = "ours: " + why;
    }
    return Launch([a](cudaStream_t s) { launchAttention(a, s); });
}

} // namespace costscope::cuda
