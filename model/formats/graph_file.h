// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>

namespace costscope {

enum class GraphFormat { RlxJson, Onnx, Costscope, Unknown };

// Format from the file name: .costscope, .onnx, else .json (RLX HIR JSON).
GraphFormat formatFromPath(const std::string& path);
// Format from the first bytes when the extension says nothing useful.
GraphFormat sniffFormat(const std::string& bytes);

struct LoadedGraph {
    Graph graph;
    GraphFormat format = GraphFormat::Unknown;
    Diagnostics warnings;
};

// Reads any supported file; errors name the file's problem (formatted with Diagnostic::format(path)).
Result<LoadedGraph> loadGraphFile(const std::string& path);
// Writes the graph in the format of the path's extension; atomic (temporary file, then rename).
Result<bool> saveGraphFile(const Graph& g, const std::string& path);
// Writes bytes to path atomically: a temporary file beside it, flushed, then renamed over it.
Result<bool> writeFileAtomic(const std::string& path, const std::string& bytes);
Result<std::string> readFileBytes(const std::string& path);

} // namespace costscope
