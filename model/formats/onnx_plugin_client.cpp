// SPDX-License-Identifier: MIT
// A build with ONNX import: it goes through the plugin libcostscope_onnx.so, loaded on first use
// (formats/onnx_plugin.h says why).
#include "formats/onnx_plugin.h"
#include "plugins/shared_module.h"

namespace costscope {

namespace {
Result<const OnnxPlugin*> onnxPlugin()
{
    static const Result<const OnnxPlugin*> loaded =
        loadPluginEntry<const OnnxPlugin>("libcostscope_onnx.so", kOnnxPluginEntry, COSTSCOPE_ONNX_PLUGIN_ABI);
    return loaded;
}
} // namespace

bool onnxImportAvailable()
{
    return true;
}

Result<Graph> importOnnx(const std::string& bytes, Diagnostics* warnings, const std::string& modelFolder)
{
    auto plugin = onnxPlugin();
    if (!plugin)
        return Diagnostic::error("ONNX import is unavailable: " + plugin.error().message);
    return (*plugin)->importOnnx(bytes, warnings, modelFolder);
}

std::vector<std::string> onnxExternalDataLocations(const std::string& bytes)
{
    auto plugin = onnxPlugin();
    return plugin ? (*plugin)->onnxExternalDataLocations(bytes) : std::vector<std::string>{};
}

} // namespace costscope
