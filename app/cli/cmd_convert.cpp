// SPDX-License-Identifier: MIT
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load.h"

#include <iostream>

namespace costscope::cli {

int cmdConvert(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {}, {}, &err);
    if (!args || args->positional().size() != 2) {
        std::cerr << "usage: costscope-cli convert IN OUT   (OUT ends in .json or .costscope)"
                  << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    const std::string& out = args->positional()[1];
    if (formatFromPath(out) != GraphFormat::RlxJson && formatFromPath(out) != GraphFormat::Costscope) {
        std::cerr << out << ": unknown output format: use a .json (RLX HIR JSON) or .costscope file name\n";
        return kUsage;
    }
    auto loaded = loadForCommand(args->positional()[0]);
    if (!loaded)
        return kBadInput;
    auto saved = saveGraphFile(loaded->graph, out);
    if (!saved) {
        std::cerr << saved.error().format(out) << '\n';
        return kBadInput;
    }
    return kOk;
}

} // namespace costscope::cli
