// SPDX-License-Identifier: MIT
#pragma once

#include "remote/remote_cli.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace costscope::cli {

// The options every remote-capable command takes, with the usage text they add.
constexpr const char* kRemoteUsage =
    "[--remote USER@HOST[:PORT] [--identity FILE] [--ssh-option K=V]... [--remote-cli PATH] [--remote-cache DIR]"
    " [--connect-timeout S] [--remote-timeout S] [--remote-worker on|off]]";

struct RemoteArgs {
    std::optional<RemoteCliOptions> remote; // set when --remote was given
    std::vector<std::string> rest;          // the command's own arguments
};

// Takes the remote options out of a command's arguments. Progress goes to stderr; Ctrl-C cancels (kills ssh).
std::optional<RemoteArgs> takeRemoteOptions(const std::vector<std::string>& argv, std::string* error);

// The arguments less the positionals and the options named in `dropped` (`flags` take no value; every other
// --option takes the next argument).
std::vector<std::string> optionsOnly(const std::vector<std::string>& argv, const std::set<std::string>& flags,
                                     const std::set<std::string>& dropped = {});

} // namespace costscope::cli
