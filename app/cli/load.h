// SPDX-License-Identifier: MIT
#pragma once

#include "formats/graph_file.h"

#include <optional>
#include <string>

namespace costscope::cli {

// Loads a graph file for a command: prints warnings and errors to stderr as "FILE: ..." lines.
// nullopt when the file could not be loaded (the caller exits with kBadInput).
std::optional<LoadedGraph> loadForCommand(const std::string& path, bool quietWarnings = false);

} // namespace costscope::cli
