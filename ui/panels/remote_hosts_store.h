// SPDX-License-Identifier: MIT
#pragma once
// The remote hosts the GUI knows (File → Remote Devices…), kept in QSettings with the devices each listed last, so
// that a restarted window offers them in the Run panel again without connecting first.
#include "remote/remote_commands.h"

#include <string>
#include <vector>

namespace costscope {

// Every host kept, in the order they were first added; a malformed entry is skipped.
std::vector<RemoteHostDevices> savedRemoteHosts();
// Keeps `host` (its connection options, less cancel and progress, and its devices), replacing an entry of the same
// host name.
void saveRemoteHost(const RemoteHostDevices& host);
void removeRemoteHost(const std::string& hostName);
// "user@host:port" (IPv6 in brackets): what the dialog's Host field takes back.
std::string remoteAddress(const SshTarget& target);

} // namespace costscope
