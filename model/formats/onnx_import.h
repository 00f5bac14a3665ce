// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>

namespace costscope {

// True when this build can import ONNX (libonnx was found at configure time).
bool onnxImportAvailable();

// Imports an ONNX model (serialized ModelProto bytes) through libonnx: its shape inference fills the shapes,
// initializers become Params (Constants when small) with their data, dynamic dims become symbols, attributes map to
// typed ops. Warnings (opset newer than libonnx knows, unknown ops) go to `warnings`.
Result<Graph> importOnnx(const std::string& bytes, Diagnostics* warnings = nullptr);

} // namespace costscope
