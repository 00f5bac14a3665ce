// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <map>
#include <string>
#include <vector>

namespace costscope {

inline constexpr int kCostscopeDocumentVersion = 1;

// A saved Costscope session: the graph (in RLX HIR layout) plus what the app adds to it.
struct CostscopeDocument {
    Graph graph;
    std::map<NodeId, std::pair<double, double>> positions; // canvas positions the user chose
    Bindings bindings;                                     // symbol values ("batch" = 8)
    std::vector<std::string> devices;                      // chosen devices, by name
    std::vector<std::string> profiles;                     // chosen profile set / profile names
    std::string costModel;                                 // "rlx" or "costscope"
    std::string precision;                                 // compute precision ("fp16"); empty: the graph's dtypes
    std::string rlxVersion;                                // whose device-pick rule ("0.2.16"); empty: the default
    RawJson view{"{}"};                                    // view state (zoom, collapsed groups, overlay)
    RawJson runs{"[]"};                                    // run results, as the engine reports them
    Extras extras;                                         // keys a newer version wrote, kept on save
};

// Reads a .costscope file; a version newer than this build knows is an error that says so.
Result<CostscopeDocument> parseCostscopeDocument(const std::string& text, Diagnostics* warnings = nullptr);
std::string writeCostscopeDocument(const CostscopeDocument& doc);

} // namespace costscope
