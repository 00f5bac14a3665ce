// SPDX-License-Identifier: MIT
#include "remote/scratch_dir.h"

#include <cstdlib>
#include <filesystem>

namespace costscope {

ScratchDir::ScratchDir()
{
    std::string pattern = (std::filesystem::temp_directory_path() / "costscope-remote-XXXXXX").string();
    if (::mkdtemp(pattern.data()))
        m_path = pattern;
}

ScratchDir::~ScratchDir()
{
    std::error_code ignored;
    if (!m_path.empty())
        std::filesystem::remove_all(m_path, ignored);
}

} // namespace costscope
