// SPDX-License-Identifier: MIT
// libcostscope_onnx.so's one exported symbol (formats/onnx_plugin.h).
#include "formats/onnx_plugin.h"

#include <string_view>

extern "C" __attribute__((visibility("default"))) const costscope::OnnxPlugin* costscope_onnx_plugin(const char* abi)
{
    static const costscope::OnnxPlugin plugin{costscope::onnx_import::importOnnx,
                                              costscope::onnx_import::onnxExternalDataLocations};
    return std::string_view(abi) == COSTSCOPE_ONNX_PLUGIN_ABI ? &plugin : nullptr;
}
