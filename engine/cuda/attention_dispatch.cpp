// SPDX-License-Identifier: MIT
#include "cuda/cuda_lower.h"
#include "cuda/cudnn_sdpa_config.h"
#ifdef COSTSCOPE_HAVE_CUDNN_FRONTEND
#include "cuda/cudnn_sdpa.h"
#endif

#include <vector>

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

bool cudnnSdpaExpected()
{
#ifdef COSTSCOPE_HAVE_CUDNN_FRONTEND
    return cudnnRequested();
#else
    return false;
#endif
}

LowerResult attentionLaunchInPlace(CudaPlan& plan, const AttentionArgs& a, const AttentionArgs& inPlace,
                                   std::size_t node, std::string& kernel)
{
#ifdef COSTSCOPE_HAVE_CUDNN_FRONTEND
    if (cudnnRequested())
        if (auto config = sdpaConfigFor(inPlace))
            if (auto launch = cudnnSdpaLaunch(plan, *config, inPlace, node)) {
                kernel = "cudnn_sdpa, qkv in place";
                return launch;
            }
#endif
    // Our kernels take any row strides too: where cuDNN would not take the dense problem either (F32, cuDNN off, a
    // problem it refuses), they read q, k and v in place.
    if (!cudnnSdpaExpected() || !sdpaConfigFor(a)) {
        auto launch = attentionLaunch(plan, inPlace, node, kernel);
        kernel = (kernel.empty() ? "ours" : kernel) + ", qkv in place";
        return launch;
    }
    // cuDNN refused the in-place problem but may take the dense one: the slices' own copies where those ran (another
    // node reads them), else q, k and v copied into dense scratch first, rows of qStrides[2] (kvStrides[2]) elements
    // out of the packed tensor's rows.
    if (a.q && a.k && a.v)
        return attentionLaunch(plan, a, node, kernel);
    const std::size_t es = a.storage == ElemType::F32 ? 4 : 2;
    struct Copy {
        const void* src;
        void* dst;
        std::size_t width, pitch, rows;
    };
    std::vector<Copy> copies;
    const float* dense[3] = {};
    const float* from[3] = {inPlace.q, inPlace.k, inPlace.v};
    for (int i = 0; i < 3; ++i) {
        const bool isQ = i == 0;
        const auto width = std::size_t(isQ ? a.qStrides[2] : a.kvStrides[2]) * es;
        const auto pitch = std::size_t(isQ ? inPlace.qStrides[2] : inPlace.kvStrides[2]) * es;
        const auto rows = std::size_t(a.batch * (isQ ? a.sq : a.sk));
        auto scratch = plan.allocate(width * rows, node);
        if (!scratch)
            return scratch.error();
        dense[i] = static_cast<const float*>(*scratch);
        copies.push_back({from[i], *scratch, width, pitch, rows});
    }
    AttentionArgs copied = a;
    copied.q = dense[0];
    copied.k = dense[1];
    copied.v = dense[2];
    auto launch = attentionLaunch(plan, copied, node, kernel);
    if (!launch)
        return launch;
    kernel += std::string(kernel.empty() ? "" : ", ") + "qkv copied";
    return Launch([copies, run = std::move(*launch)](cudaStream_t s) {
        for (const Copy& c : copies)
            cudaMemcpy2DAsync(c.dst, c.width, c.src, c.pitch, c.width, c.rows, cudaMemcpyDeviceToDevice, s);
        run(s);
    });
}

} // namespace costscope::cuda
