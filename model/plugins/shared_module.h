// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace costscope {

// Where run-time plugins (libcostscope_*.so: the CUDA and Vulkan backends, the CLI's PNG/PDF renderer) are looked
// for: the folders in COSTSCOPE_PLUGIN_PATH (colon-separated) where it is set, and only those; else the install's
// plugin folder relative to the running binary (<bin>/../lib/costscope/plugins) and the build tree's plugins/ folder
// when the running binary lies inside that build tree.
std::vector<std::string> pluginSearchDirs();

// A shared module opened with dlopen and never closed: objects it made (backends, plans) may outlive any handle,
// and unloading CUDA or Qt mid-process is not supported by either.
class SharedModule {
public:
    // The first `fileName` in pluginSearchDirs(); the error names the file and every folder searched, or the loader's
    // reason (a missing dependency such as libcudart.so.13, say).
    static Result<SharedModule> openPlugin(const std::string& fileName);

    void* symbol(const char* name) const;
    const std::string& path() const { return m_path; }

private:
    void* m_handle = nullptr;
    std::string m_path;
};

// What plugin `fileName` hands out through its one exported entry point `entryName`, an
// `extern "C" T* entry(const char* abi)` that returns nullptr when `abi` is not the plugin's own ABI string (the
// plugin and the binary are built from the same sources by the same compiler, and C++ types cross the boundary).
// The error says why the plugin is unavailable. Callers keep the result in a function-local static: once a process.
template <class T>
Result<T*> loadPluginEntry(const std::string& fileName, const char* entryName, const char* abi)
{
    auto module = SharedModule::openPlugin(fileName);
    if (!module)
        return module.error();
    auto entry = reinterpret_cast<T* (*)(const char*)>(module->symbol(entryName));
    if (!entry)
        return Diagnostic::error(module->path() + " is not a Costscope plugin (no " + entryName + ")");
    T* offered = entry(abi);
    if (!offered)
        return Diagnostic::error(module->path() + " was built for another Costscope build; this one is " + abi);
    return offered;
}

} // namespace costscope
