// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "remote/ssh_target.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace costscope {

struct RemoteCliOptions {
    SshTarget target;
    std::string cli = "costscope-cli";            // the remote program: on the remote PATH, or a path
    std::string cacheDir = ".cache/costscope/graphs"; // relative paths are below the remote home
    std::chrono::milliseconds commandTimeout{30000}; // version checks, cache probes
    std::chrono::milliseconds runTimeout{600000};    // the remote run or calibration itself
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const std::string&)> onProgress; // lines to show as they come (remote stderr, copy steps)
};

// What the remote costscope-cli printed and how it ended (0, or 4 when a run's check failed).
struct RemoteOutput {
    int exitCode = 0;
    std::string out;
    std::string err;
};

// The remote costscope-cli, over ssh: version check, the content-addressed graph cache, commands. Every failure
// (unreachable, authentication refused, missing or older CLI, a crash, a timeout, a lost connection, Cancel) is an
// error that says which, never a wait without end.
class RemoteCli {
public:
    explicit RemoteCli(RemoteCliOptions options) : m_options(std::move(options)) {}

    // The remote version ("0.9.0"); an error when the CLI is missing or older than `minimum`.
    Result<std::string> checkVersion(const std::string& minimum);
    // The remote path of the graph, copied with its companions into <cacheDir>/<sha256>/ unless already there.
    Result<std::string> ensureGraph(const std::string& graphFile, const std::vector<std::string>& companions = {});
    // `costscope-cli ARGS...` on the remote; stderr lines go to onProgress as they come. An exit status other than
    // 0 and 4 (a run's check failed) is an error that quotes the remote's last words.
    Result<RemoteOutput> run(const std::vector<std::string>& args);

    const RemoteCliOptions& options() const { return m_options; }

private:
    Result<RemoteOutput> ssh(const std::string& command, std::chrono::milliseconds timeout, bool streamStderr);
    RemoteCliOptions m_options;
};

// True when version a is older than b ("0.9.0" < "0.10.0").
bool versionOlder(const std::string& a, const std::string& b);

} // namespace costscope
