// SPDX-License-Identifier: MIT
// Any bytes given to the RLX loader must give a graph or an error, never a crash; a graph it accepts must survive
// writing and reading back (what Costscope saves it must be able to open).
#include "formats/rlx_json.h"
#include "ir/graph_summary.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    costscope::Diagnostics warnings;
    auto g = costscope::parseRlxJson(text, &warnings);
    if (!g)
        return 0;
    (void)costscope::summarize(*g);
    auto again = costscope::parseRlxJson(costscope::writeRlxJson(*g));
    if (!again || !(*again == *g))
        std::abort();
    return 0;
}
