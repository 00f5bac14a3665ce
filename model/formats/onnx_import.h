// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>
#include <vector>

namespace costscope {

// True when this build can import ONNX (libonnx was found at configure time).
bool onnxImportAvailable();

// Imports an ONNX model (serialized ModelProto bytes) through libonnx: its shape inference fills the shapes,
// initializers become Params (Constants when small) with their data, dynamic dims become symbols, attributes map to
// typed ops. Warnings (opset newer than libonnx knows, unknown ops) go to `warnings`. Initializers kept in external
// data files are read (memory-mapped) from `modelFolder`; without one they load without values, with a warning.
Result<Graph> importOnnx(const std::string& bytes, Diagnostics* warnings = nullptr,
                         const std::string& modelFolder = {});

// The files an ONNX model keeps tensor values in (external data), as its "location" entries name them: relative
// to the model's directory. Empty without ONNX support or when the bytes are no model.
std::vector<std::string> onnxExternalDataLocations(const std::string& bytes);

} // namespace costscope
