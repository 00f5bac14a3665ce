// SPDX-License-Identifier: MIT
// Any bytes given to the ONNX importer must give a graph or an error, never a crash or a hang.
#include "formats/onnx_plugin.h"
#include "ir/validate.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    costscope::Diagnostics warnings;
    auto g = costscope::onnx_import::importOnnx(bytes, &warnings, {});
    // An imported graph is one the rest of Costscope relies on being sound.
    if (g && costscope::hasErrors(costscope::validateGraph(*g)))
        std::abort();
    return 0;
}
