// SPDX-License-Identifier: MIT
#pragma once
// --device as the commands that run on one device take it (issue 23): an index of --backend (0, 1, ...), "all", or a
// device id as `costscope-cli devices` and the remote listing print it: "cuda:0" or "local/cuda:0" on this machine,
// "HOST/cuda:0" on the host that --remote configures.
#include "cli/remote_options.h"

#include <string>

namespace costscope::cli {

// Rewrites a device id in `args.rest` into the --backend and --device index the command reads (an index or "all" is
// left as it is). An id of another host than --remote's (or any host without --remote) is exit 3 naming the remotes
// configured; a local id with --remote, or an id whose backend --backend contradicts, is exit 3 too; a malformed id
// is a usage error (2). Returns 0 when the arguments can go on, else the exit code with *error set.
int resolveDeviceId(RemoteArgs& args, std::string* error);

} // namespace costscope::cli
