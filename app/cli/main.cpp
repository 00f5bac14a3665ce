// SPDX-License-Identifier: MIT
// costscope-cli: the headless entry point; every analysis the GUI shows is available here.
#include "cli/args.h"
#include "cli/commands.h"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <new>

namespace {
void printUsage(std::ostream& os)
{
    os << "usage: costscope-cli COMMAND [ARGS]\n\ncommands:\n";
    for (const auto& c : costscope::cli::commands())
        os << "  " << c.usage << '\n';
    os << "\nexit codes: 0 ok, 2 usage, 3 bad input, 4 check failed\n";
}
} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        printUsage(std::cerr);
        return costscope::cli::kUsage;
    }
    const std::string cmd = argv[1];
    if (cmd == "--version" || cmd == "version") {
        std::cout << "costscope-cli " << COSTSCOPE_VERSION << '\n';
        return 0;
    }
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        printUsage(std::cout);
        return 0;
    }
    std::vector<std::string> args(argv + 2, argv + argc);
    const bool help = std::find_if(args.begin(), args.end(), [](const std::string& a) {
                          return a == "--help" || a == "-h";
                      }) != args.end();
    for (const auto& c : costscope::cli::commands())
        if (cmd == c.name) {
            if (help) { // `costscope-cli run --help`: that command's line, not "unknown option"
                std::cout << "usage: costscope-cli " << c.usage << '\n';
                return 0;
            }
            try {
                return c.run(args);
            } catch (const std::bad_alloc&) { // a tensor larger than memory: bad input, not a crash
                std::cerr << "costscope-cli " << cmd << ": out of memory (the input asks for a tensor larger than "
                          << "this machine can hold)\n";
                return costscope::cli::kBadInput;
            }
        }
    std::cerr << "costscope-cli: unknown command '" << cmd << "'\n";
    printUsage(std::cerr);
    return costscope::cli::kUsage;
}
