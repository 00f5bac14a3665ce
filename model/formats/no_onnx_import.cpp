// SPDX-License-Identifier: MIT
#include "formats/onnx_import.h"

namespace costscope {

#ifndef COSTSCOPE_HAVE_ONNX
bool onnxImportAvailable()
{
    return false;
}

std::vector<std::string> onnxExternalDataLocations(const std::string&)
{
    return {};
}

Result<Graph> importOnnx(const std::string&, Diagnostics*, const std::string&)
{
    return Diagnostic::error("this build has no ONNX import (libonnx was not found when it was built)");
}
#endif

} // namespace costscope
