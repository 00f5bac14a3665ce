// SPDX-License-Identifier: MIT
#include "cli/commands.h"

namespace costscope::cli {

const std::vector<Command>& commands()
{
    static const std::vector<Command> list = {
        {"info", "info FILE [--json]                 name, nodes, op histogram, inputs, outputs, symbols", cmdInfo},
        {"convert", "convert IN OUT                     convert between formats (by extension)", cmdConvert},
        {"devices", "devices [--json]                   the devices of every backend in this build", cmdDevices},
        {"run", "run FILE [--backend cpu] [--bind S=N]... [--runs 20] [--warmup 3] [--per-node] [--reference OUT.pb|cpu] [--json]", cmdRun},
    };
    return list;
}

} // namespace costscope::cli
