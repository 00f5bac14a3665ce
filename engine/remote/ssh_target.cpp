// SPDX-License-Identifier: MIT
#include "remote/ssh_target.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace costscope {

std::string SshTarget::destination() const
{
    return user.empty() ? host : user + '@' + host;
}

Result<SshTarget> parseSshTarget(const std::string& text)
{
    SshTarget t;
    std::string rest = text;
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        t.user = rest.substr(0, at);
        rest = rest.substr(at + 1);
    }
    std::string portText;
    if (!rest.empty() && rest.front() == '[') { // [IPv6]:port
        const auto close = rest.find(']');
        if (close == std::string::npos)
            return Diagnostic::error("--remote '" + text + "': ']' missing");
        portText = rest.size() > close + 1 && rest[close + 1] == ':' ? rest.substr(close + 2) : "";
        rest = rest.substr(1, close - 1);
    } else if (const auto colon = rest.find(':');
               colon != std::string::npos && rest.find(':', colon + 1) == std::string::npos) {
        portText = rest.substr(colon + 1);
        rest = rest.substr(0, colon);
    }
    t.host = rest;
    if (!portText.empty()) {
        char* end = nullptr;
        const long port = std::strtol(portText.c_str(), &end, 10);
        if (*end != '\0' || port < 1 || port > 65535)
            return Diagnostic::error("--remote '" + text + "': the port must be 1 to 65535, got '" + portText + "'");
        t.port = static_cast<int>(port);
    }
    if (t.host.empty() || (text.find('@') != std::string::npos && t.user.empty()))
        return Diagnostic::error("--remote expects user@host[:port], got '" + text + "'");
    return t;
}

namespace {
// ssh names a socket <dir>/%C (40 hex digits) and binds it first as <dir>/%C.<16 random characters>: a Unix
// socket's path has at most 107 bytes, so a long home gets a private directory in /tmp instead.
std::string controlDir(const SshTarget& t)
{
    if (!t.controlDir.empty())
        return t.controlDir;
    const char* home = std::getenv("HOME");
    const std::string dir = std::string(home ? home : "/tmp") + "/.cache/costscope/ssh";
    constexpr std::size_t kSocketPathMax = 107, kSocketName = 1 + 40 + 17;
    if (home && dir.size() + kSocketName <= kSocketPathMax)
        return dir;
    return "/tmp/costscope-ssh-" + std::to_string(::getuid());
}

// The options ssh and scp share; scp spells the port -P, ssh -p.
std::vector<std::string> commonOptions(const SshTarget& t, const char* portFlag)
{
    std::vector<std::string> a;
    for (const std::string& o : t.options)
        a.insert(a.end(), {"-o", o});
    const std::string dir = controlDir(t);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec); // ssh does not create it; without it ssh simply runs unshared
    // Only its owner may reach a master connection through it.
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ec);
    a.insert(a.end(), {"-o", "BatchMode=yes", "-o", "ConnectTimeout=" + std::to_string(t.connectTimeoutS), "-o",
                       "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "-o", "ControlMaster=auto", "-o",
                       "ControlPath=" + dir + "/%C", "-o", "ControlPersist=120"});
    if (t.port > 0)
        a.insert(a.end(), {portFlag, std::to_string(t.port)});
    if (!t.identityFile.empty())
        a.insert(a.end(), {"-i", t.identityFile, "-o", "IdentitiesOnly=yes"});
    return a;
}
} // namespace

std::vector<std::string> sshCommand(const SshTarget& t, const std::string& remoteCommand)
{
    std::vector<std::string> a = {"ssh"};
    const auto common = commonOptions(t, "-p");
    a.insert(a.end(), common.begin(), common.end());
    a.insert(a.end(), {"-T", "--", t.destination(), remoteCommand});
    return a;
}

std::vector<std::string> scpCommand(const SshTarget& t, const std::vector<std::string>& localFiles,
                                    const std::string& remoteDir)
{
    std::vector<std::string> a = {"scp", "-q"};
    const auto common = commonOptions(t, "-P");
    a.insert(a.end(), common.begin(), common.end());
    a.push_back("--");
    a.insert(a.end(), localFiles.begin(), localFiles.end());
    const bool v6 = t.host.find(':') != std::string::npos;
    a.push_back((t.user.empty() ? "" : t.user + '@') + (v6 ? '[' + t.host + ']' : t.host) + ':' + remoteDir + '/');
    return a;
}

std::string shellQuote(const std::string& word)
{
    std::string q = "'";
    for (char c : word)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

} // namespace costscope
