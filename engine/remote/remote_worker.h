// SPDX-License-Identifier: MIT
#pragma once
// The client of a host's long-lived `costscope-cli worker`: every ssh command starts the user's login shell on the
// host (hundreds of ms where ~/.bashrc runs `pyenv init`, and OpenSSH cannot skip it), so after the first run a
// worker started by it serves the next ones. It listens on the host's 127.0.0.1 and is reached by `ssh -W` through
// the master connection: a direct-tcpip channel, which starts no shell. The port and the worker's secret token
// (other users of the host can reach its loopback too) are what the run that started it printed, kept here.
#include "ir/diagnostic.h"
#include "remote/remote_cli.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace costscope {

// The first word of the stderr line on which the run that started a worker gives its "PORT TOKEN" ("none" when
// the remote CLI has no worker mode).
constexpr const char* kWorkerLine = "costscope-cli-worker:";
// The exit status of a request whose required files are not in the remote cache (their paths in missingFiles).
constexpr int kWorkerFileMissing = 87;

class RemoteWorker {
public:
    explicit RemoteWorker(const RemoteCliOptions& options) : m_options(options) {}

    // What this machine knows of the host's worker: none known (start one), one to use, or none there to start.
    enum class Known { Nothing, Worker, Unsupported };
    Known known() const;
    // Keeps what the run that started the worker printed after kWorkerLine; forgets it with "".
    void remember(const std::string& portAndToken) const;

    // ARGS through the worker. nullopt: not served (no worker known, gone, busy with another request, its CLI file
    // replaced): the caller runs them the one-shot way. A served request that failed (cancelled, timed out, the
    // connection or the worker lost mid-request) is an error naming the host; the next request finds the worker
    // gone and the one-shot way starts a new one.
    std::optional<Result<RemoteOutput>> run(const std::vector<std::string>& args,
                                            const std::vector<std::string>& requiredFiles);

private:
    // One request on a channel to the worker; `busy` set when it was serving another.
    std::optional<Result<RemoteOutput>> ask(const std::vector<std::string>& argv, const std::string& request,
                                            bool* busy);
    // The worker's last word: the output, or nullopt where the one-shot way is to run it.
    std::optional<Result<RemoteOutput>> answered(const nlohmann::json& answer, std::string errText, bool* busy) const;
    const RemoteCliOptions& m_options;
};

} // namespace costscope
