// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace costscope {

// SHA-256 comes from OpenSSL through the network plugin (plugins/network_plugin.h): without it, an error says so.
// The hex SHA-256 of a file's bytes.
Result<std::string> sha256OfFile(const std::string& path);
// The hex SHA-256 of a string.
Result<std::string> sha256OfText(const std::string& text);

// The name of a graph in the remote cache: the SHA-256 of the graph file alone, or, when files travel beside it
// (ONNX external data), of every file's name and SHA-256, so that a changed companion is a new entry.
Result<std::string> contentKey(const std::string& graphFile, const std::vector<std::string>& companions);

} // namespace costscope
