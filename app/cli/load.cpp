// SPDX-License-Identifier: MIT
#include "cli/load.h"

#include <iostream>

namespace costscope::cli {

std::optional<LoadedGraph> loadForCommand(const std::string& path, bool quietWarnings)
{
    auto loaded = loadGraphFile(path);
    if (!loaded) {
        std::cerr << loaded.error().format(path) << '\n';
        return std::nullopt;
    }
    if (!quietWarnings)
        for (const Diagnostic& w : loaded->warnings)
            std::cerr << w.format(path) << '\n';
    return std::move(*loaded);
}

} // namespace costscope::cli
