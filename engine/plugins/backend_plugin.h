// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "calibration/calibrate_device.h"

#include <memory>

// What a backend plugin offers: the CUDA and Vulkan backends are shared modules loaded at run time
// (libcostscope_backend_<name>.so), so that only the plugin links the CUDA toolkit's or the Vulkan loader's
// libraries and the binaries start on machines without them (the backend is then listed as unavailable, with why).
//
// The plugin and the binary that loads it are built from the same sources by the same compiler, and C++ types
// (Graph, Result, Backend) cross the boundary; the ABI string below keeps a plugin of another build from being used.
// The plugin carries its own copy of the engine and model code with every symbol hidden, so nothing of it can
// interpose on the binary's copy.
#define COSTSCOPE_BACKEND_PLUGIN_ABI ("costscope-backend-plugin-1 " COSTSCOPE_VERSION " " __VERSION__)

namespace costscope {

class BackendPlugin {
public:
    virtual ~BackendPlugin() = default;
    virtual std::unique_ptr<Backend> makeBackend() = 0;
    virtual Result<DeviceCalibration> calibrate(const DeviceCalibrationOptions& options) = 0;
};

// The one symbol a backend plugin exports: `extern "C" BackendPlugin* costscope_backend_plugin(const char* abi)`,
// which returns nullptr when `abi` is not the plugin's own COSTSCOPE_BACKEND_PLUGIN_ABI.
inline constexpr const char* kBackendPluginEntry = "costscope_backend_plugin";

// The plugin of backend `name` ("cuda", "vulkan"), loaded once per process; the error says why it is unavailable.
Result<BackendPlugin*> loadBackendPlugin(const std::string& name);

} // namespace costscope

#define COSTSCOPE_EXPORT_BACKEND_PLUGIN(PluginClass)                                                               \
    extern "C" __attribute__((visibility("default"))) costscope::BackendPlugin* costscope_backend_plugin(          \
        const char* abi)                                                                                           \
    {                                                                                                              \
        if (std::string_view(abi) != COSTSCOPE_BACKEND_PLUGIN_ABI)                                                 \
            return nullptr;                                                                                        \
        static PluginClass plugin;                                                                                 \
        return &plugin;                                                                                            \
    }
