// SPDX-License-Identifier: MIT
#include "remote/remote_cli.h"

#include "remote/child_process.h"
#include "remote/content_key.h"
#include "remote/remote_worker.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace costscope {

namespace {
constexpr int kSshFailed = 255;   // ssh's own exit status for every failure of its own
constexpr int kNotFound = 127;    // the shell's, for a command it cannot find
constexpr int kCheckFailed = 4;   // costscope-cli run: the output check failed, the run itself is complete
constexpr int kOtherVersion = 86; // run()'s checks: the remote CLI is of another version (printed on stdout)
constexpr int kFileMissing = kWorkerFileMissing; // run()'s checks: required files not in the cache (paths on stdout)
// run()'s checks: the stderr line that names the remote CLI's file (device, inode, size, mtime, ctime) once its
// version passed.
constexpr const char* kIdentityLine = "costscope-cli-identity:";

std::string lastLines(const std::string& text, std::size_t count = 3)
{
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r'))
        t.pop_back();
    std::size_t start = t.size();
    for (std::size_t n = 0; n < count && start > 0; ++n)
        start = t.rfind('\n', start - 1) == std::string::npos ? 0 : t.rfind('\n', start - 1) + 1;
    return t.substr(start);
}

bool contains(const std::string& text, const char* what)
{
    return text.find(what) != std::string::npos;
}

// ssh's message, named for what a user has to do about it.
std::string sshFailure(const SshTarget& t, const std::string& stderrText)
{
    const std::string where = t.destination() + (t.port ? ":" + std::to_string(t.port) : "");
    const std::string said = lastLines(stderrText);
    if (contains(said, "Permission denied") || contains(said, "Too many authentication failures"))
        return where
               + ": authentication refused (is the key in the remote ~/.ssh/authorized_keys? give it with "
                 "--identity): "
               + said;
    if (contains(said, "Host key verification failed"))
        return where + ": host key not known or changed (connect once with ssh to accept it): " + said;
    if (contains(said, "Connection refused") || contains(said, "Could not resolve") || contains(said, "timed out")
        || contains(said, "No route to host") || contains(said, "Network is unreachable"))
        return where + ": host unreachable: " + said;
    if (said.empty())
        return where + ": the connection was lost (or the remote command was killed)";
    return where + ": the connection failed or was lost: " + said;
}

// The remote command line of a long command. ssh's stdin is held open by this side (ChildOptions::holdStdinOpen), so
// the watcher's `cat` ends exactly when this side or the connection is gone, and then stops the command: without it
// a run outlives a killed connection on the remote. The exit status of a signal is reported in words; ssh would
// turn it into its own 255. Background jobs of a script read /dev/null, hence stdin kept as fd 3 for the watcher.
std::string watched(const std::string& command)
{
    return "exec 3<&0; " + command
           + " </dev/null 3<&- & p=$!; (cat <&3 >/dev/null 2>&1; kill $p 2>/dev/null) "
             ">/dev/null 2>&1 & w=$!; exec 3<&-; wait $p; s=$?; kill $w 2>/dev/null; if [ $s -gt 128 ]; then echo "
             "\"costscope-cli died of signal $((s - 128))\" >&2; fi; exit $s";
}
// Where this machine keeps the identity of each remote CLI whose version passed: a later run that finds the same file
// there skips `--version` (a process start on the remote, 60 to 140 ms on a loaded host). A reinstalled package is a
// new file (another inode or mtime), so its version is checked again.
std::filesystem::path identityFile(const RemoteCliOptions& o)
{
    const char* cache = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const std::filesystem::path dir =
        cache && *cache ? std::filesystem::path(cache) : std::filesystem::path(home ? home : "/tmp") / ".cache";
    const std::string key = o.target.destination() + ':' + std::to_string(o.target.port) + ' ' + o.cli;
    auto name = sha256OfText(key);
    if (!name)
        return {}; // no cache without the network plugin: every run checks the version
    return dir / "costscope" / "remote-cli" / *name;
}

std::string knownIdentity(const RemoteCliOptions& o)
{
    std::ifstream in(identityFile(o));
    std::string identity;
    std::getline(in, identity);
    return identity;
}

void rememberIdentity(const RemoteCliOptions& o, const std::string& identity)
{
    const std::filesystem::path file = identityFile(o);
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    std::ofstream(file) << identity << '\n'; // a cache: a failure to write only costs the next run a check
}

bool isIdentityLine(const std::string& line)
{
    return line.rfind(kIdentityLine, 0) == 0 || line.rfind(kWorkerLine, 0) == 0;
}

// Takes the line that starts with `prefix` out of `err` (a detail of the transport, not the remote's words) and
// returns what follows the prefix; "" when there is none.
std::string takeLine(std::string& err, const char* prefix)
{
    const auto at = err.find(prefix);
    if (at == std::string::npos)
        return {};
    const std::size_t from = at + std::string(prefix).size();
    const std::size_t end = std::min(err.find('\n', from), err.size());
    std::string value = err.substr(from, end - from);
    err.erase(at, end + 1 - at);
    while (!value.empty() && value.front() == ' ')
        value.erase(0, 1);
    return value;
}

// The shell line that starts the host's worker (remote_worker.h) before the command: it answers "PORT TOKEN" once it
// listens, then leaves the session (worker_loop.cpp). A CLI without the mode (an older package) says nothing of the
// kind: "none", and runs stay one-shot.
std::string workerStart()
{
    return "w=$(\"$p\" worker --listen --watch \"$p\" </dev/null 2>/dev/null); case \"$w\" in [0-9]*\\ ?*) ;; *) "
           "w=none;; esac; echo "
           + std::string(kWorkerLine) + " \"$w\" >&2; ";
}

} // namespace

// True when version a is older than b ("0.9.0" < "0.10.0").
bool versionOlder(const std::string& a, const std::string& b)
{
    std::istringstream x(a), y(b);
    for (;;) {
        long p = 0, q = 0;
        const bool hx = static_cast<bool>(x >> p), hy = static_cast<bool>(y >> q);
        if (!hx && !hy)
            return false;
        if (p != q)
            return p < q;
        x.ignore(1);
        y.ignore(1);
    }
}

Result<RemoteOutput> RemoteCli::ssh(const std::string& command, std::chrono::milliseconds timeout, bool streamStderr)
{
    ChildOptions o;
    o.timeout = timeout;
    o.cancel = m_options.cancel;
    o.holdStdinOpen = true;
    if (streamStderr && m_options.onProgress)
        o.onStderrLine = [this](const std::string& line) {
            if (!isIdentityLine(line))
                m_options.onProgress(m_options.target.host + ": " + line);
        };
    const ChildResult r = runChild(sshCommand(m_options.target, command), o);
    const std::string where = m_options.target.destination();
    if (r.startFailed)
        return Diagnostic::error(r.err + " (install the OpenSSH client)");
    if (r.cancelled || (m_options.cancel && m_options.cancel->load()))
        return Diagnostic::error(where + ": cancelled");
    if (r.timedOut)
        return Diagnostic::error(where + ": no answer within " + std::to_string(timeout.count() / 1000)
                                 + " s (the ssh connection was killed)");
    if (r.exitCode == kSshFailed || r.exitCode < 0)
        return Diagnostic::error(sshFailure(m_options.target, r.err));
    return RemoteOutput{r.exitCode, r.out, r.err, {}};
}

Result<bool> RemoteCli::acceptVersion(const std::string& versionLine)
{
    const std::string where = m_options.target.destination(), prefix = "costscope-cli ";
    if (versionLine.compare(0, prefix.size(), prefix) != 0)
        return Diagnostic::error(where + ": " + m_options.cli
                                 + " --version did not answer as costscope-cli does: " + versionLine);
    const std::string version = versionLine.substr(prefix.size());
    if (versionOlder(version, COSTSCOPE_VERSION))
        return Diagnostic::error(where + ": costscope-cli " + version
                                 + " is older than this one (" COSTSCOPE_VERSION
                                   "); update the costscope package there");
    m_versionChecked = true;
    return true;
}

Result<CachedGraph> RemoteCli::cachedGraph(const std::string& graphFile,
                                           const std::vector<std::string>& companions) const
{
    auto key = contentKey(graphFile, companions);
    if (!key)
        return key.error();
    CachedGraph g;
    g.localFiles = {graphFile};
    g.localFiles.insert(g.localFiles.end(), companions.begin(), companions.end());
    g.key = *key;
    g.remoteDir = m_options.cacheDir + '/' + *key;
    g.remotePath = g.remoteDir + '/' + std::filesystem::path(graphFile).filename().string();
    return g;
}

// scp over SFTP reports a full disk as a failed upload, no more: the cache's file system says whether it was one.
std::string RemoteCli::roomLeft(std::uintmax_t bytes)
{
    auto df = ssh("df -Pk " + shellQuote(m_options.cacheDir) + " | awk 'NR == 2 { print $4, $6 }'",
                  m_options.commandTimeout, false);
    std::istringstream fields(df && df->exitCode == 0 ? df->out : std::string());
    std::uintmax_t freeKiB = 0;
    std::string mount;
    if (!(fields >> freeKiB >> mount) || freeKiB * 1024 >= bytes)
        return {};
    return " (no space left on the host's " + mount + ": " + std::to_string(freeKiB) + " KiB free, the copy needs "
           + std::to_string(bytes) + " bytes)";
}

Result<bool> RemoteCli::upload(const CachedGraph& graph)
{
    namespace fs = std::filesystem;
    std::uintmax_t bytes = 0;
    for (const std::string& f : graph.localFiles)
        bytes += fs::file_size(f);
    const std::string name = fs::path(graph.localFiles.front()).filename().string();
    if (m_options.onProgress)
        m_options.onProgress(m_options.target.host + ": copying " + name + " (" + std::to_string(bytes) + " bytes) to "
                             + graph.remoteDir);
    // A copy cut short never looks cached: it is renamed into place only when complete.
    const std::string staging = m_options.cacheDir + "/.incoming-" + graph.key + '-' + std::to_string(::getpid());
    auto made = ssh("mkdir -p " + shellQuote(staging), m_options.commandTimeout, false);
    if (!made)
        return made.error();
    if (made->exitCode != 0)
        return Diagnostic::error(m_options.target.destination() + ": cannot create " + staging + ": "
                                 + lastLines(made->err));
    ChildOptions o;
    o.timeout = m_options.runTimeout;
    o.cancel = m_options.cancel;
    const ChildResult copied = runChild(scpCommand(m_options.target, graph.localFiles, staging), o);
    if (copied.exitCode != 0) {
        ssh("rm -rf " + shellQuote(staging), m_options.commandTimeout, false);
        std::string why = copied.timedOut ? "timed out" : copied.cancelled ? "cancelled" : lastLines(copied.err);
        if (!copied.timedOut && !copied.cancelled)
            why += roomLeft(bytes);
        return Diagnostic::error(m_options.target.destination() + ": copying " + name + " failed: "
                                 + (why.empty() ? "scp ended with status " + std::to_string(copied.exitCode) : why));
    }
    const std::string s = shellQuote(staging), d = shellQuote(graph.remoteDir);
    // An entry already there (the same bytes under another file name) takes the new name beside the old one.
    auto moved = ssh("if [ -d " + d + " ]; then mv -n " + s + "/* " + d + "/ 2>/dev/null; rm -rf " + s + "; else mv "
                         + s + ' ' + d + "; fi",
                     m_options.commandTimeout, false);
    if (!moved)
        return moved.error();
    if (moved->exitCode != 0)
        return Diagnostic::error(m_options.target.destination() + ": cannot move the copy into " + graph.remoteDir);
    return true;
}

Result<RemoteOutput> RemoteCli::run(const std::vector<std::string>& args, const std::vector<std::string>& requiredFiles)
{
    RemoteWorker worker(m_options);
    if (m_options.useWorker)
        if (auto served = worker.run(args, requiredFiles)) {
            if (*served)
                m_versionChecked = true;
            return finish(std::move(*served), !requiredFiles.empty());
        }
    const std::string cli = shellQuote(m_options.cli);
    std::string line = cli;
    for (const std::string& a : args)
        line += ' ' + shellQuote(a);
    std::string checks;
    // The same version passes here; any other is compared in full by acceptVersion. A CLI file already checked from
    // here (knownIdentity) is not asked again.
    if (!m_versionChecked) {
        checks += "p=$(command -v " + cli + ") || exit " + std::to_string(kNotFound)
                  + "; i=$(stat -L -c %d:%i:%s:%Y:%Z \"$p\" 2>/dev/null); if [ -z \"$i\" ] || [ \"$i\" != "
                  + shellQuote(knownIdentity(m_options)) + " ]; then v=$(\"$p\" --version 2>/dev/null) || exit "
                  + std::to_string(kNotFound) + "; [ \"$v\" = " + shellQuote("costscope-cli " COSTSCOPE_VERSION)
                  + " ] || { echo \"$v\"; exit " + std::to_string(kOtherVersion) + "; }; echo " + kIdentityLine
                  + "\"$i\" >&2; fi; ";
        if (m_options.useWorker && worker.known() == RemoteWorker::Known::Nothing)
            checks += workerStart();
    }
    if (!requiredFiles.empty()) {
        checks += "m=0; for f in";
        for (const std::string& f : requiredFiles)
            checks += ' ' + shellQuote(f);
        checks += "; do test -f \"$f\" || { echo \"$f\"; m=1; }; done; [ $m = 0 ] || exit "
                  + std::to_string(kFileMissing) + "; ";
    }
    auto r = ssh(checks + watched(line), m_options.runTimeout, true);
    if (!r)
        return r;
    const std::string where = m_options.target.destination();
    if (!m_versionChecked && r->exitCode == kNotFound)
        return Diagnostic::error(where + ": " + m_options.cli
                                 + " not found (install the costscope package there, or "
                                   "give its path with --remote-cli)");
    if (!m_versionChecked && r->exitCode == kOtherVersion) {
        if (auto accepted = acceptVersion(lastLines(r->out, 1)); !accepted)
            return accepted.error();
        return run(args, requiredFiles);
    }
    if (!m_versionChecked) {
        if (const std::string identity = takeLine(r->err, kIdentityLine); !identity.empty()) {
            rememberIdentity(m_options, identity);
            if (worker.known() == RemoteWorker::Known::Unsupported)
                worker.remember(""); // another CLI file: it may have the worker mode
        }
        if (const std::string started = takeLine(r->err, kWorkerLine); !started.empty())
            worker.remember(started);
    }
    m_versionChecked = true;
    return finish(std::move(r), !requiredFiles.empty());
}

Result<RemoteOutput> RemoteCli::finish(Result<RemoteOutput> r, bool withRequiredFiles)
{
    if (!r)
        return r;
    if (r->exitCode == kFileMissing && withRequiredFiles) {
        if (r->missingFiles.empty()) {
            std::istringstream lines(r->out);
            for (std::string path; std::getline(lines, path);)
                if (!path.empty())
                    r->missingFiles.push_back(path);
        }
        return r;
    }
    if (r->exitCode != 0 && r->exitCode != kCheckFailed)
        return Diagnostic::error(m_options.target.destination() + ": " + m_options.cli + " ended with status "
                                 + std::to_string(r->exitCode) + ": " + lastLines(r->err));
    return r;
}

} // namespace costscope
