// SPDX-License-Identifier: MIT
#include "cuda/fused_nvrtc.h"

#include "cuda/compute_capability.h"
#include "cuda/fused_codegen.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#ifdef COSTSCOPE_HAVE_NVRTC
#include "cuda/fused_nvrtc_headers.h"

#include <nvrtc.h>
#endif

namespace costscope::cuda {

bool nvrtcEnabled(std::string* why)
{
#ifdef COSTSCOPE_HAVE_NVRTC
    const char* env = std::getenv("COSTSCOPE_CUDA_NVRTC");
    if (env && std::string(env) == "0") {
        if (why)
            *why = "COSTSCOPE_CUDA_NVRTC=0";
        return false;
    }
    return true;
#else
    if (why)
        *why = "built without NVRTC";
    return false;
#endif
}

#ifdef COSTSCOPE_HAVE_NVRTC
namespace {
Diagnostic nvrtcError(const std::string& what, const std::string& detail)
{
    return Diagnostic::error("NVRTC: " + what + (detail.empty() ? "" : ": " + detail));
}
} // namespace

Result<std::vector<char>> compileFusedSource(const std::string& source, const std::string& arch)
{
    // The source includes the backend's device headers; cuda_runtime.h and cstdint are the host's, replaced by the
    // few names the headers use.
    const char* headerNames[] = {"cuda/elementwise_ops.cuh", "cuda/cuda_kernels.h", "cuda_runtime.h", "cstdint"};
    const char* headers[] = {kNvrtcElementwiseOps, kNvrtcCudaKernels, "typedef struct CUstream_st* cudaStream_t;\n",
                             "namespace std { typedef long long int64_t; typedef int int32_t; typedef unsigned char "
                             "uint8_t; typedef unsigned long long uint64_t; typedef unsigned int uint32_t; }\n"};
    nvrtcProgram prog = nullptr;
    if (nvrtcCreateProgram(&prog, source.c_str(), "costscope_fused.cu", 4, headers, headerNames) != NVRTC_SUCCESS)
        return nvrtcError("cannot create a program", "");
    const std::string archOption = "--gpu-architecture=" + arch;
    // -default-device: the headers' host launchers carry no annotation, and NVRTC refuses host functions.
    const char* options[] = {archOption.c_str(), "--std=c++17", "-default-device",
                             "--include-path=" COSTSCOPE_CUDA_INCLUDE_DIR};
    const nvrtcResult compiled = nvrtcCompileProgram(prog, 4, options);
    std::string log;
    std::size_t logSize = 0;
    if (nvrtcGetProgramLogSize(prog, &logSize) == NVRTC_SUCCESS && logSize > 1) {
        log.resize(logSize);
        nvrtcGetProgramLog(prog, log.data());
        log.resize(logSize - 1);
    }
    std::vector<char> cubin;
    std::size_t size = 0;
    const bool ok = compiled == NVRTC_SUCCESS && nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS && size > 0;
    if (ok) {
        cubin.resize(size);
        nvrtcGetCUBIN(prog, cubin.data());
    }
    nvrtcDestroyProgram(&prog);
    if (!ok)
        return nvrtcError(std::string("compiling a fused kernel for ") + arch + " failed ("
                              + nvrtcGetErrorString(compiled) + ")",
                          log.substr(0, 2000));
    return cubin;
}

namespace {
Result<std::string> currentArchitecture()
{
    int device = 0;
    const int capability = cudaGetDevice(&device) == cudaSuccess ? computeCapability(device) : 0;
    if (capability == 0)
        return nvrtcError("no current CUDA device", "");
    return "sm_" + std::to_string(capability);
}

// Loaded libraries, never unloaded: a cached kernel may be in a plan until the process ends, and unloading from a
// static destructor would run after the CUDA runtime has shut down.
struct KernelCache {
    std::mutex mutex;
    std::map<std::string, cudaKernel_t> kernels; // by architecture + source
};

KernelCache& cache()
{
    static auto* c = new KernelCache;
    return *c;
}
} // namespace

Result<CompiledFused> compileFusedElementwise(const FusedElementwiseArgs& args)
{
    const FusedSource source = fusedElementwiseSource(args);
    auto arch = currentArchitecture();
    if (!arch)
        return arch.error();
    const std::string key = *arch + "\n" + source.code;
    KernelCache& c = cache();
    std::lock_guard lock(c.mutex);
    auto it = c.kernels.find(key);
    if (it == c.kernels.end()) {
        auto cubin = compileFusedSource(source.code, *arch);
        if (!cubin)
            return cubin.error();
        cudaLibrary_t library = nullptr;
        cudaKernel_t kernel = nullptr;
        cudaError_t e = cudaLibraryLoadData(&library, cubin->data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
        if (e == cudaSuccess)
            e = cudaLibraryGetKernel(&kernel, library, kFusedKernelName);
        if (e != cudaSuccess)
            return nvrtcError("loading the compiled fused kernel failed", cudaGetErrorString(e));
        it = c.kernels.emplace(key, kernel).first;
    }
    return CompiledFused{it->second, source.vector, source.threads};
}

void launchCompiledFused(const CompiledFused& k, const FusedElementwiseArgs& args, cudaStream_t s)
{
    if (k.threads == 0)
        return;
    const void* pointers[kMaxFusedInputs + 1] = {};
    void* params[kMaxFusedInputs + 1] = {};
    for (int i = 0; i < args.inputs; ++i)
        pointers[i] = args.in[i];
    pointers[args.inputs] = args.out;
    for (int i = 0; i <= args.inputs; ++i)
        params[i] = &pointers[i];
    const std::int64_t blocks = (k.threads + kFusedThreads - 1) / kFusedThreads;
    const unsigned grid = static_cast<unsigned>(blocks > 65535 * 16 ? 65535 * 16 : blocks);
    cudaLaunchKernel(reinterpret_cast<const void*>(k.kernel), dim3(grid), dim3(kFusedThreads), params, 0, s);
}
#else
Result<std::vector<char>> compileFusedSource(const std::string&, const std::string&)
{
    return Diagnostic::error("built without NVRTC");
}

Result<CompiledFused> compileFusedElementwise(const FusedElementwiseArgs&)
{
    return Diagnostic::error("built without NVRTC");
}

void launchCompiledFused(const CompiledFused&, const FusedElementwiseArgs&, cudaStream_t)
{
}
#endif

} // namespace costscope::cuda
