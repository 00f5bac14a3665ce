// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>
#include <vector>

namespace costscope {

// Params and Constants whose values live in a file that could not be read (an ONNX model's external data file that
// is missing): the graph can be viewed and analysed, not run. The importer marks each such node; the mark is a node
// extra, so that it survives a save as .costscope or RLX HIR JSON.
struct MissingTensorData {
    NodeId node = 0;
    std::string tensor;
    std::string file;
};

void markMissingData(Node& n, const std::string& file);
std::vector<MissingTensorData> missingTensorData(const Graph& g);
// Why the graph cannot run, naming the first missing file and its tensor; "" when nothing is missing.
std::string missingDataReason(const Graph& g);

} // namespace costscope
