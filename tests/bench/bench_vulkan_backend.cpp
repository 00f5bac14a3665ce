// SPDX-License-Identifier: MIT
// Vulkan backend throughput, as ratios within one run: the element-wise kernel and the copy kernel against the
// driver's own vkCmdCopyBuffer, and the tiled matmul's GFLOP/s (compare with the CUDA bench's copy bandwidth and
// cuBLAS figure from the same machine). No Qt: it links costscope_engine only, so it runs on bare GPU machines.
// Usage: bench_vulkan_backend [--device I] [--matmul N[,N...]] [--elements N] [--repeats N]
#include "vulkan/vulkan_calibrate.h"
#include "vulkan/vulkan_register.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

using namespace costscope;

int main(int argc, char** argv)
{
    VulkanCalibrationOptions o;
    o.matmulSizes = {4096};
    o.copyElements = std::int64_t(1) << 26;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--device") {
            o.device = std::atoi(value.c_str());
        } else if (key == "--matmul") {
            o.matmulSizes.clear();
            std::stringstream s(value);
            for (std::string part; std::getline(s, part, ',');)
                o.matmulSizes.push_back(std::atoll(part.c_str()));
        } else if (key == "--elements") {
            o.copyElements = std::atoll(value.c_str());
        } else if (key == "--repeats") {
            o.repeats = std::atoi(value.c_str());
        } else {
            std::fprintf(stderr, "bench_vulkan_backend: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    auto backend = makeVulkanBackend();
    const auto devices = backend->devices();
    if (devices.empty()) {
        std::fprintf(stderr, "bench_vulkan_backend: no Vulkan device\n");
        return 1;
    }
    for (const DeviceInfo& d : devices)
        std::printf("device %d: %s, %.1f GiB, subgroup %d\n", d.index, d.name.c_str(),
                    double(d.memoryBytes) / double(1ull << 30), d.computeUnits);
    auto c = calibrateVulkan(o);
    if (!c) {
        std::fprintf(stderr, "bench_vulkan_backend: %s\n", c.error().message.c_str());
        return 1;
    }
    std::printf("running on: %s\n", c->device.c_str());
    std::printf("vkCmdCopyBuffer      %8.1f GB/s  (reference)\n", c->bufferCopyGBps);
    std::printf("copy kernel          %8.1f GB/s  ratio %.2f\n", c->copyGBps, c->copyGBps / c->bufferCopyGBps);
    std::printf("element-wise (Relu)  %8.1f GB/s  ratio %.2f  (vs copy kernel %.2f)\n", c->elementwiseGBps,
                c->elementwiseGBps / c->bufferCopyGBps, c->elementwiseGBps / c->copyGBps);
    for (const auto& m : c->matmul)
        std::printf("matmul %lld^3          %8.1f GFLOP/s\n", static_cast<long long>(m.size), m.gflops);
    std::printf("dispatch overhead    %8.2f us\n", c->dispatchOverheadUs);
    std::printf("submit+wait          %8.2f us\n", c->roundtripUs);
    std::printf("readback             %8.2f GB/s\n", c->readbackGBps);
    return 0;
}
