// SPDX-License-Identifier: MIT
#include "cli/remote_options.h"

#include "cli/args.h"

#include <csignal>
#include <iostream>

namespace costscope::cli {

namespace {
std::atomic<bool> g_interrupted{false};

void onInterrupt(int)
{
    g_interrupted.store(true);
}

const std::set<std::string> kRemoteOptions = {"remote",       "identity",        "ssh-option",     "remote-cli",
                                              "remote-cache", "connect-timeout", "remote-timeout", "remote-worker"};

std::optional<int> seconds(const std::optional<std::string>& text, int dflt, const char* name, std::string* error)
{
    const auto v = text ? parseInt(*text) : std::optional<std::int64_t>(dflt);
    if (!v || *v < 1 || *v > 86400) {
        *error = std::string("--") + name + " takes seconds (1 to 86400)";
        return std::nullopt;
    }
    return static_cast<int>(*v);
}
} // namespace

std::optional<RemoteArgs> takeRemoteOptions(const std::vector<std::string>& argv, std::string* error)
{
    RemoteArgs out;
    std::vector<std::string> mine;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        const std::string name = a.rfind("--", 0) == 0 ? a.substr(2, a.find('=') - 2) : "";
        if (!kRemoteOptions.count(name)) {
            out.rest.push_back(a);
            continue;
        }
        mine.push_back(a);
        if (a.find('=') == std::string::npos && i + 1 < argv.size())
            mine.push_back(argv[++i]);
    }
    if (mine.empty())
        return out;
    auto args = Args::parse(mine, {}, kRemoteOptions, error);
    if (!args)
        return std::nullopt;
    const auto where = args->option("remote");
    if (!where) {
        *error = "--identity, --ssh-option and --remote-* go with --remote USER@HOST[:PORT]";
        return std::nullopt;
    }
    auto target = parseSshTarget(*where);
    if (!target) {
        *error = target.error().message;
        return std::nullopt;
    }
    const auto connect = seconds(args->option("connect-timeout"), 10, "connect-timeout", error);
    const auto timeout = seconds(args->option("remote-timeout"), 600, "remote-timeout", error);
    if (!connect || !timeout)
        return std::nullopt;
    const std::string worker = args->option("remote-worker").value_or("on");
    if (worker != "on" && worker != "off") {
        *error = "--remote-worker takes on or off";
        return std::nullopt;
    }
    RemoteCliOptions o;
    o.target = *target;
    o.target.identityFile = args->option("identity").value_or("");
    o.target.options = args->options("ssh-option");
    o.target.connectTimeoutS = *connect;
    o.cli = args->option("remote-cli").value_or(o.cli);
    o.cacheDir = args->option("remote-cache").value_or(o.cacheDir);
    // A command that waits longer than ssh takes to connect and run it has failed: 3 connect timeouts and the run.
    o.commandTimeout = std::chrono::seconds(3 * *connect);
    o.runTimeout = std::chrono::seconds(*timeout);
    o.useWorker = worker == "on";
    o.cancel = &g_interrupted;
    o.onProgress = [](const std::string& line) { std::cerr << line << '\n'; };
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    out.remote = std::move(o);
    return out;
}

std::vector<std::string> optionsOnly(const std::vector<std::string>& argv, const std::set<std::string>& flags,
                                     const std::set<std::string>& dropped)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() < 3 || a.rfind("--", 0) != 0)
            continue;
        const std::string name = a.substr(2, a.find('=') - 2);
        const bool keep = !dropped.count(name);
        if (keep)
            out.push_back(a);
        if (a.find('=') == std::string::npos && !flags.count(name) && i + 1 < argv.size()) {
            ++i;
            if (keep)
                out.push_back(argv[i]);
        }
    }
    return out;
}

} // namespace costscope::cli
