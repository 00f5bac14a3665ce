// SPDX-License-Identifier: MIT
// Vulkan backend throughput, as ratios within one run: the element-wise kernel and the copy kernel against the
// driver's own vkCmdCopyBuffer and, in a build with CUDA on a machine with an NVIDIA GPU, against the CUDA
// device-to-device copy; the tiled matmul's GFLOP/s against cuBLAS's fp32 sgemm at the same size. No Qt: it links
// costscope_engine only, so it runs on bare GPU machines.
// Usage: bench_vulkan_backend [--device I] [--matmul N[,N...]] [--elements N] [--repeats N]
#include "vulkan/vulkan_calibrate.h"
#include "vulkan/vulkan_register.h"
#ifdef COSTSCOPE_HAVE_CUDA
#include "cuda/cuda_calibrate.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

using namespace costscope;

namespace {
// cuBLAS fp32 at each square size and the device copy bandwidth (GB/s), when CUDA is built and present.
struct CudaReference {
    bool present = false;
    std::vector<std::pair<std::int64_t, double>> sgemmGflops;
    double copyGBps = 0;
};

CudaReference cudaReference([[maybe_unused]] const std::vector<std::int64_t>& sizes, [[maybe_unused]] int repeats)
{
    CudaReference ref;
#ifdef COSTSCOPE_HAVE_CUDA
    CudaCalibrationOptions o;
    o.gemmSizes = sizes;
    o.convolutions = false;
    o.repeats = repeats;
    auto c = calibrateCuda(0, o);
    if (!c) {
        std::printf("CUDA reference: not measured (%s)\n", c.error().message.c_str());
        return ref;
    }
    ref.present = true;
    for (const auto& g : c->sgemm)
        if (g.k == g.m)
            ref.sgemmGflops.emplace_back(g.m, g.flopsPerSecond / 1e9);
    ref.copyGBps = c->copyBytesPerSecond / 1e9;
#else
    std::printf("CUDA reference: not built\n");
#endif
    return ref;
}
} // namespace

int main(int argc, char** argv)
{
    VulkanCalibrationOptions o;
    o.matmulSizes = {4096};
    o.squareOnly = true;
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
    const CudaReference cuda = cudaReference(o.matmulSizes, o.repeats);
    std::printf("running on: %s\n", c->device.c_str());
    std::printf("vkCmdCopyBuffer      %8.1f GB/s  (reference)\n", c->bufferCopyGBps);
    if (cuda.present)
        std::printf("CUDA copy            %8.1f GB/s  (reference)\n", cuda.copyGBps);
    const auto ratios = [&](const char* what, double gbps) {
        std::printf("%-20s %8.1f GB/s  ratio %.2f to vkCmdCopyBuffer", what, gbps, gbps / c->bufferCopyGBps);
        if (cuda.present)
            std::printf(", %.3f to CUDA copy", gbps / cuda.copyGBps);
        std::printf("\n");
    };
    ratios("copy kernel", c->copyGBps);
    ratios("element-wise (Relu)", c->elementwiseGBps);
    for (const auto& m : c->matmul) {
        std::printf("matmul %lld^3          %8.1f GFLOP/s", static_cast<long long>(m.m), m.gflops);
        for (const auto& [size, gflops] : cuda.sgemmGflops)
            if (size == m.m)
                std::printf("  cuBLAS fp32 %.1f GFLOP/s, ratio %.3f", gflops, m.gflops / gflops);
        std::printf("\n");
    }
    std::printf("dispatch overhead    %8.2f us\n", c->dispatchOverheadUs);
    std::printf("submit+wait          %8.2f us\n", c->roundtripUs);
    std::printf("readback             %8.2f GB/s\n", c->readbackGBps);
    return 0;
}
