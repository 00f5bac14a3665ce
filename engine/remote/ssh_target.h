// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace costscope {

// A remote host reached with the system's OpenSSH client, so that the user's ~/.ssh/config (ProxyJump, Host
// aliases, agents) applies as it does to their own ssh.
struct SshTarget {
    std::string user; // empty: ssh's own choice (config, then the local user)
    std::string host;
    int port = 0;                     // 0: ssh's own choice
    std::string identityFile;         // -i
    std::vector<std::string> options; // -o K=V, before ours, so that they win (ssh keeps an option's first value)
    int connectTimeoutS = 10;
    std::string controlDir; // where the ControlMaster sockets live; empty: ~/.cache/costscope/ssh

    // "user@host": what ssh is given; `host` alone names the host's devices and calibrated profiles.
    std::string destination() const;
};

// "user@host", "host", "user@host:2222", "[::1]:2222".
Result<SshTarget> parseSshTarget(const std::string& text);

// ssh with connection reuse (ControlMaster/ControlPath/ControlPersist), BatchMode (a password prompt would hang),
// ConnectTimeout and keep-alives (a dead connection ends within about 15 s), then `remoteCommand`, a shell line.
std::vector<std::string> sshCommand(const SshTarget& t, const std::string& remoteCommand);
// scp of local files into a remote directory, through the same master connection.
std::vector<std::string> scpCommand(const SshTarget& t, const std::vector<std::string>& localFiles,
                                    const std::string& remoteDir);

// One word for the remote shell: ssh hands the remote side one command line, which its login shell splits again.
std::string shellQuote(const std::string& word);

} // namespace costscope
