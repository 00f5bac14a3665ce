// SPDX-License-Identifier: MIT
#include "cli/commands.h"

namespace costscope::cli {

const std::vector<Command>& commands()
{
    static const std::vector<Command> list = {
        {"info", "info FILE [--json]                 name, nodes, op histogram, inputs, outputs, symbols", cmdInfo},
        {"convert", "convert IN OUT                     convert between formats (by extension)", cmdConvert},
    };
    return list;
}

} // namespace costscope::cli
