// SPDX-License-Identifier: MIT
// costscope-cli: the headless entry point; every analysis the GUI shows is available here.
#include "cli/commands.h"

int main(int argc, char** argv)
{
    return costscope::cli::runCommandLine(std::vector<std::string>(argv + 1, argv + argc));
}
