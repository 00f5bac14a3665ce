// SPDX-License-Identifier: MIT
#include "backend.h"
#include "cpu/cpu_backend.h"
#include "plugins/backend_plugin.h"
#include "plugins/shared_module.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>

namespace costscope {

namespace {

// Every optional backend Costscope knows, in listing order; each is a plugin that may or may not be installed.
constexpr const char* kPluginBackends[] = {"cuda", "vulkan"};

Result<BackendPlugin*> openBackendPlugin(const std::string& name)
{
    return loadPluginEntry<BackendPlugin>("libcostscope_backend_" + name + ".so", kBackendPluginEntry,
                                          COSTSCOPE_BACKEND_PLUGIN_ABI);
}

} // namespace

Result<BackendPlugin*> loadBackendPlugin(const std::string& name)
{
    // Loading CUDA takes a few hundred milliseconds: once per process, on first use, never at start-up.
    static std::mutex mutex;
    static std::map<std::string, Result<BackendPlugin*>> loaded;
    const std::lock_guard lock(mutex);
    auto it = loaded.find(name);
    if (it == loaded.end())
        it = loaded.emplace(name, openBackendPlugin(name)).first;
    return it->second;
}

std::vector<BackendStatus> backendStatus()
{
    std::vector<BackendStatus> list{{"cpu", true, "built in"}};
    for (const char* name : kPluginBackends) {
        auto plugin = loadBackendPlugin(name);
        list.push_back({name, plugin.ok(), plugin ? "plugin" : plugin.error().message});
    }
    return list;
}

std::vector<std::unique_ptr<Backend>> availableBackends()
{
    std::vector<std::unique_ptr<Backend>> list;
    list.push_back(std::make_unique<CpuBackend>());
    for (const char* name : kPluginBackends)
        if (auto plugin = loadBackendPlugin(name))
            list.push_back((*plugin)->makeBackend());
    return list;
}

Result<std::unique_ptr<Backend>> loadBackend(const std::string& name)
{
    if (!isKnownBackend(name))
        return Diagnostic::error("unknown backend '" + name + "' (known: cpu, cuda, vulkan)");
    if (name == "cpu")
        return std::unique_ptr<Backend>(std::make_unique<CpuBackend>());
    auto plugin = loadBackendPlugin(name);
    if (!plugin)
        return Diagnostic::error("backend '" + name + "' is unavailable: " + plugin.error().message);
    return (*plugin)->makeBackend();
}

bool isKnownBackend(const std::string& name)
{
    return name == "cpu" || std::find(std::begin(kPluginBackends), std::end(kPluginBackends), name) !=
                                std::end(kPluginBackends);
}

std::unique_ptr<Backend> makeBackend(const std::string& name)
{
    auto backend = loadBackend(name);
    return backend ? std::move(*backend) : nullptr;
}

} // namespace costscope
