// SPDX-License-Identifier: MIT
#include "plugins/shared_module.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <system_error>

namespace costscope {

namespace {

std::filesystem::path runningBinaryDir()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

bool isInside(const std::filesystem::path& path, const std::filesystem::path& dir)
{
    const auto rel = path.lexically_relative(dir);
    return !rel.empty() && *rel.begin() != "..";
}

} // namespace

std::vector<std::string> pluginSearchDirs()
{
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("COSTSCOPE_PLUGIN_PATH")) {
        std::istringstream list(env);
        for (std::string dir; std::getline(list, dir, ':');)
            if (!dir.empty())
                dirs.push_back(dir);
        return dirs;
    }
    const auto bin = runningBinaryDir();
    if (bin.empty())
        return dirs;
    dirs.push_back((bin / COSTSCOPE_PLUGIN_INSTALL_RELDIR).lexically_normal().string());
    const std::filesystem::path buildDir = COSTSCOPE_BUILD_DIR;
    if (isInside(bin, buildDir))
        dirs.push_back(COSTSCOPE_BUILD_PLUGIN_DIR);
    return dirs;
}

Result<SharedModule> SharedModule::openPlugin(const std::string& fileName)
{
    std::string searched;
    for (const std::string& dir : pluginSearchDirs()) {
        const auto path = std::filesystem::path(dir) / fileName;
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) {
            searched += (searched.empty() ? "" : ", ") + dir;
            continue;
        }
        SharedModule m;
        m.m_path = path.string();
        // RTLD_LOCAL: the plugin's own copy of the engine stays private to it (it also hides it at link time).
        m.m_handle = dlopen(m.m_path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!m.m_handle) {
            const char* why = dlerror();
            return Diagnostic::error(m.m_path + " could not be loaded: " + (why ? why : "unknown dlopen error"));
        }
        return m;
    }
    return Diagnostic::error(fileName + " is not installed (searched: " + (searched.empty() ? "nowhere" : searched) +
                             ")");
}

void* SharedModule::symbol(const char* name) const
{
    return m_handle ? dlsym(m_handle, name) : nullptr;
}

} // namespace costscope
