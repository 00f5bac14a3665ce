// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <memory>
#include <string>

namespace costscope {

enum class GraphFormat { RlxJson, Onnx, Costscope, Unknown };

// Format from the file name: .costscope, .onnx, else .json (RLX HIR JSON).
GraphFormat formatFromPath(const std::string& path);
// Format from the first bytes when the extension says nothing useful.
GraphFormat sniffFormat(const std::string& bytes);

struct CostscopeDocument;

struct LoadedGraph {
    Graph graph;
    GraphFormat format = GraphFormat::Unknown;
    Diagnostics warnings;
    // A .costscope file's session (settings, view, positions) without its graph, which is `graph`; else null.
    std::shared_ptr<const CostscopeDocument> session;
};

// Reads any supported file; errors name the file's problem (formatted with Diagnostic::format(path)).
Result<LoadedGraph> loadGraphFile(const std::string& path);
// The one save-format switch (costscope-cli convert, the GUI's Save): .costscope writes the whole document,
// .json (RLX HIR JSON) its graph only; ONNX and other names are refused. Atomic (temporary file, then rename).
Result<bool> saveDocumentFile(const CostscopeDocument& doc, const std::string& path);
// saveDocumentFile of a document that holds only `g`.
Result<bool> saveGraphFile(const Graph& g, const std::string& path);
// Writes bytes to path atomically: a temporary file beside it, flushed, then renamed over it.
Result<bool> writeFileAtomic(const std::string& path, const std::string& bytes);
Result<std::string> readFileBytes(const std::string& path);

} // namespace costscope
