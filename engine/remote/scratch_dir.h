// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace costscope {

// A private temporary directory, removed with everything in it when this object goes: for the files a remote use
// case writes here only to copy them into a host's cache (a graph, a profile).
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    // Empty when no directory could be made.
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace costscope
