// SPDX-License-Identifier: MIT
#include "remote/remote_worker.h"

#include "remote/child_process.h"
#include "remote/content_key.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace costscope {

namespace {
using Json = nlohmann::json;

// A request running on the worker says something every second (worker_loop.cpp): a longer silence is a worker or
// a connection gone (the ssh -W client does not exit when its channel closes).
constexpr std::chrono::milliseconds kSilence{10000};

std::filesystem::path recordFile(const RemoteCliOptions& o)
{
    const char* cache = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const std::filesystem::path dir =
        cache && *cache ? std::filesystem::path(cache) : std::filesystem::path(home ? home : "/tmp") / ".cache";
    // A worker inherits the environment of the session that started it (SetEnv among the options), so each set of
    // options has its own.
    std::string key = o.target.destination() + ':' + std::to_string(o.target.port) + ' ' + o.cli;
    for (const std::string& option : o.target.options)
        key += '\n' + option;
    // SHA-256 through the network plugin; where that cannot load, FNV-1a still keeps each option set's file apart
    // (a file name, not a security boundary).
    auto hash = sha256OfText(key);
    if (!hash) {
        std::uint64_t h = 1469598103934665603ull;
        for (const unsigned char c : key)
            h = (h ^ c) * 1099511628211ull;
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
        return dir / "costscope" / "remote-worker" / hex;
    }
    return dir / "costscope" / "remote-worker" / *hash;
}

std::string where(const RemoteCliOptions& o)
{
    std::string w = o.target.destination();
    if (o.target.port) {
        w += ':';
        w += std::to_string(o.target.port);
    }
    return w;
}

bool isFinal(const std::string& line)
{
    return line.rfind("{\"exit\"", 0) == 0 || line.rfind("{\"error\"", 0) == 0;
}
} // namespace

RemoteWorker::Known RemoteWorker::known() const
{
    std::ifstream in(recordFile(m_options));
    std::string first;
    if (!(in >> first))
        return Known::Nothing;
    return first == "none" ? Known::Unsupported : Known::Worker;
}

void RemoteWorker::remember(const std::string& portAndToken) const
{
    const std::filesystem::path file = recordFile(m_options);
    std::error_code ec;
    if (portAndToken.empty()) {
        std::filesystem::remove(file, ec);
        return;
    }
    std::filesystem::create_directories(file.parent_path(), ec);
    std::filesystem::permissions(file.parent_path(), std::filesystem::perms::owner_all, ec);
    std::ofstream(file) << portAndToken << '\n'; // a cache: a failure to write only costs a one-shot run
    // The token lets anyone on the host's loopback run commands as this user there.
    std::filesystem::permissions(file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write, ec);
}

std::optional<Result<RemoteOutput>> RemoteWorker::run(const std::vector<std::string>& args,
                                                      const std::vector<std::string>& requiredFiles)
{
    std::ifstream record(recordFile(m_options));
    int port = 0;
    std::string token;
    if (!(record >> port >> token) || port <= 0 || port > 65535)
        return std::nullopt;
    const Json request = {{"token", token}, {"args", args}, {"required", requiredFiles}};
    std::vector<std::string> argv = sshCommand(m_options.target, "");
    argv.pop_back(); // no remote command: a channel to the worker instead
    argv.insert(argv.end() - 2, {"-W", "127.0.0.1:" + std::to_string(port)}); // before "--" and the destination
    bool busy = false;
    auto served = ask(argv, request.dump() + '\n', &busy);
    if (busy) { // a request cancelled just now may still be ending there
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        busy = false;
        served = ask(argv, request.dump() + '\n', &busy);
        if (busy && m_options.onProgress)
            m_options.onProgress(m_options.target.host
                                 + ": the worker is busy with another request; this one runs on its own");
    }
    return served;
}

std::optional<Result<RemoteOutput>> RemoteWorker::ask(const std::vector<std::string>& argv, const std::string& request,
                                                      bool* busy)
{
    ChildOptions o;
    o.timeout = m_options.runTimeout;
    o.cancel = m_options.cancel;
    o.holdStdinOpen = true; // the worker ends the request when its channel closes
    o.input = request;
    o.silenceTimeout = kSilence;
    o.firstWordTimeout = std::max(kSilence, m_options.commandTimeout); // through a connection made anew, maybe
    std::size_t seen = 0;
    std::string finalLine, errText;
    o.answerComplete = [&](const std::string& out) {
        for (std::size_t nl; (nl = out.find('\n', seen)) != std::string::npos; seen = nl + 1) {
            const std::string line = out.substr(seen, nl - seen);
            if (isFinal(line)) {
                finalLine = line;
                return true;
            }
            if (line.rfind("{\"err\"", 0) != 0)
                continue;
            const Json said = Json::parse(line, nullptr, false);
            const std::string text = said.is_object() ? said.value("err", std::string()) : line;
            errText += text + '\n';
            if (m_options.onProgress)
                m_options.onProgress(m_options.target.host + ": " + text);
        }
        return false;
    };
    const ChildResult r = runChild(argv, o);
    const std::string host = where(m_options);
    if (r.startFailed)
        return std::nullopt; // the one-shot way says why
    if (r.cancelled)
        return Result<RemoteOutput>(Diagnostic::error(host + ": cancelled"));
    if (r.timedOut)
        return Result<RemoteOutput>(Diagnostic::error(host + ": no answer within "
                                                      + std::to_string(m_options.runTimeout.count() / 1000)
                                                      + " s (the request was abandoned)"));
    if (finalLine.empty()) {
        // ssh gave up before the worker acknowledged the request (it does at once): none listens there any more.
        if (r.out.empty() && !r.silent) {
            remember("");
            return std::nullopt;
        }
        if (r.out.empty())
            remember(""); // it took no request: the next run starts another
        return Result<RemoteOutput>(Diagnostic::error(
            host + ": the connection or the remote costscope-cli worker was lost during the run ("
            + (r.silent ? "silent for " + std::to_string(kSilence.count() / 1000) + " s" : "the channel closed")
            + "); the next run starts a new worker where it is gone"));
    }
    try {
        return answered(Json::parse(finalLine), std::move(errText), busy);
    } catch (const Json::exception&) { // not our worker's words
        remember("");
        return std::nullopt;
    }
}

std::optional<Result<RemoteOutput>> RemoteWorker::answered(const nlohmann::json& answer, std::string errText,
                                                           bool* busy) const
{
    const std::string host = where(m_options);
    if (answer.contains("error")) {
        const std::string why = answer.value("error", std::string());
        if (why == "busy")
            *busy = true;
        else
            remember(""); // its CLI file was replaced, or it is not ours: the one-shot way starts another
        return std::nullopt;
    }
    const std::string version = answer.value("version", std::string());
    if (version.empty() || versionOlder(version, COSTSCOPE_VERSION)) {
        remember("");
        return std::nullopt;
    }
    RemoteOutput out;
    out.exitCode = answer.value("exit", -1);
    out.out = answer.value("out", std::string());
    out.err = std::move(errText);
    if (const int signal = answer.value("signal", 0); signal != 0)
        return Result<RemoteOutput>(
            Diagnostic::error(host + ": costscope-cli died of signal " + std::to_string(signal)));
    if (out.exitCode == kWorkerFileMissing)
        for (const Json& f : answer.value("missing", Json::array()))
            out.missingFiles.push_back(f.get<std::string>());
    return Result<RemoteOutput>(std::move(out));
}

} // namespace costscope
