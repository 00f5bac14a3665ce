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

} // namespace costscope
