// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "remote/ssh_target.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace costscope {

struct RemoteCliOptions {
    SshTarget target;
    std::string cli = "costscope-cli";                // the remote program: on the remote PATH, or a path
    std::string cacheDir = ".cache/costscope/graphs"; // relative paths are below the remote home
    std::chrono::milliseconds commandTimeout{30000};  // version checks, cache probes
    std::chrono::milliseconds runTimeout{600000};     // the remote run or calibration itself
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const std::string&)> onProgress; // lines to show as they come (remote stderr, copy steps)
    bool useWorker = true; // serve runs from a long-lived worker on the host (remote_worker.h) where it can
};

// True when version a is older than b ("0.9.0" < "0.10.0").
bool versionOlder(const std::string& a, const std::string& b);

// What the remote costscope-cli printed and how it ended (0, or 4 when a run's check failed).
struct RemoteOutput {
    int exitCode = 0;
    std::string out;
    std::string err;
    std::vector<std::string> missingFiles; // run(): the required files not in the remote cache (nothing was run)
};

// A graph file and what travels with it, named in the remote cache by their content.
struct CachedGraph {
    std::vector<std::string> localFiles; // the graph first, then its companions (ONNX external data)
    std::string key;                     // sha256 (content_key.h)
    std::string remoteDir;               // <cacheDir>/<key>
    std::string remotePath;              // <remoteDir>/<the graph's file name>
};

// The remote costscope-cli, over ssh: version check, the content-addressed graph cache, commands. Every failure
// (unreachable, authentication refused, missing or older CLI, a crash, a timeout, a lost connection, Cancel) is an
// error that says which, never a wait without end.
class RemoteCli {
public:
    explicit RemoteCli(RemoteCliOptions options) : m_options(std::move(options)) {}

    Result<CachedGraph> cachedGraph(const std::string& graphFile,
                                    const std::vector<std::string>& companions = {}) const;
    // Copies the graph into the remote cache: into a directory of its own, renamed when complete.
    Result<bool> upload(const CachedGraph& graph);
    // `costscope-cli ARGS...` on the remote, its checks in the same ssh round trip (each costs a remote login):
    // the first time, that the remote CLI is there and of this version (else the full comparison: older is an
    // error); with `requiredFiles`, that they are in the cache (else missingFiles). stderr lines go to
    // onProgress as they come. An exit status other than 0 and 4 (a run's check failed) is an error that quotes
    // the remote's last words.
    Result<RemoteOutput> run(const std::vector<std::string>& args, const std::vector<std::string>& requiredFiles = {});

    const RemoteCliOptions& options() const { return m_options; }

private:
    Result<RemoteOutput> ssh(const std::string& command, std::chrono::milliseconds timeout, bool streamStderr);
    Result<bool> acceptVersion(const std::string& versionLine);
    // The tail both ways share: a missing file, a failed command.
    Result<RemoteOutput> finish(Result<RemoteOutput> r, bool withRequiredFiles);
    // After a failed copy of `bytes`: why, when the remote cache's file system has no room for them; else "".
    std::string roomLeft(std::uintmax_t bytes);
    RemoteCliOptions m_options;
    bool m_versionChecked = false;
};

} // namespace costscope
