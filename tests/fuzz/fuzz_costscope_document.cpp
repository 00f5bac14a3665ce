// SPDX-License-Identifier: MIT
// Any bytes given to the .costscope loader must give a document or an error, never a crash; a document it accepts
// must load again after saving.
#include "formats/costscope_document.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    costscope::Diagnostics warnings;
    auto doc = costscope::parseCostscopeDocument(text, &warnings);
    if (!doc)
        return 0;
    auto again = costscope::parseCostscopeDocument(costscope::writeCostscopeDocument(*doc));
    if (!again || !(again->graph == doc->graph) || again->bindings != doc->bindings)
        std::abort();
    return 0;
}
