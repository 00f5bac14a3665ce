// SPDX-License-Identifier: MIT
#include "calibration/host_probe.h"

#include "calibration/micro_graphs.h"
#include "calibration/time_graph.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace costscope {

Result<HostProbe> probeHost(Backend& backend, DeviceIndex device, const std::atomic<bool>* cancel)
{
    static const Graph gemm = matmulGraph(256, 256, 256);
    static const Graph kernel = chainGraph(std::int64_t(1) << 14, 1, "Erf");
    static const Graph memory = addGraph(std::int64_t(1) << 21);
    static const Graph dispatch = addChainGraph(16, 64);
    HostProbe p;
    for (auto [g, dst, repeats] : {std::tuple{&gemm, &p.gemmNs, 9}, std::tuple{&kernel, &p.kernelNs, 9},
                                   std::tuple{&memory, &p.memoryNs, 5}, std::tuple{&dispatch, &p.dispatchNs, 9}}) {
        auto ns = timeGraph(backend, *g, 2, repeats, cancel, device);
        if (!ns)
            return ns.error();
        *dst = *ns;
    }
    return p;
}

HostProbe meanProbe(const HostProbe& a, const HostProbe& b)
{
    auto mean = [](double x, double y) { return x > 0 && y > 0 ? std::sqrt(x * y) : std::max(x, y); };
    return {mean(a.gemmNs, b.gemmNs), mean(a.kernelNs, b.kernelNs), mean(a.memoryNs, b.memoryNs),
            mean(a.dispatchNs, b.dispatchNs)};
}

} // namespace costscope
