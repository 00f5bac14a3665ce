// SPDX-License-Identifier: MIT
#pragma once
// ONNX import is a plugin, libcostscope_onnx.so (the formats/onnx_*.cpp sources with libonnx and protobuf), that the
// model loads the first time it reads an ONNX file: linked into the binaries, libonnx and protobuf cost every CLI
// call their loading, relocation and descriptor registration, although most commands never see an ONNX file. The
// plugin and the model are built from the same sources by the same compiler, and C++ types cross the boundary; the
// ABI string keeps a plugin of another build from being used.
#include "formats/onnx_import.h"

#define COSTSCOPE_ONNX_PLUGIN_ABI ("costscope-onnx-plugin-1 " COSTSCOPE_VERSION " " __VERSION__)

namespace costscope {

struct OnnxPlugin {
    Result<Graph> (*importOnnx)(const std::string& bytes, Diagnostics* warnings, const std::string& modelFolder);
    std::vector<std::string> (*onnxExternalDataLocations)(const std::string& bytes);
};

// The one symbol the plugin exports: `extern "C" const OnnxPlugin* costscope_onnx_plugin(const char* abi)`, nullptr
// when `abi` is not its own COSTSCOPE_ONNX_PLUGIN_ABI.
inline constexpr const char* kOnnxPluginEntry = "costscope_onnx_plugin";

// What the plugin hands out: onnx_import.h's functions, through libonnx.
namespace onnx_import {
Result<Graph> importOnnx(const std::string& bytes, Diagnostics* warnings, const std::string& modelFolder);
std::vector<std::string> onnxExternalDataLocations(const std::string& bytes);
} // namespace onnx_import

} // namespace costscope
