// SPDX-License-Identifier: MIT
#include "cli/worker_loop.h"

#include "cli/args.h"
#include "cli/commands.h"
#include "remote/remote_worker.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace costscope::cli {

namespace {
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Writes all of `line` and a newline; false when the other side is gone.
bool send(int fd, const Json& message)
{
    const std::string line = message.dump() + '\n';
    for (std::size_t done = 0; done < line.size();) {
        const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Lines from a descriptor, waiting for each at most until a deadline.
struct LineReader {
    int fd;
    std::string buffer;
    bool closed = false;

    // nullopt at end of file, an error, or the deadline.
    std::optional<std::string> next(Clock::time_point deadline)
    {
        for (;;) {
            if (const auto nl = buffer.find('\n'); nl != std::string::npos) {
                std::string line = buffer.substr(0, nl);
                buffer.erase(0, nl + 1);
                return line;
            }
            if (closed)
                return std::nullopt;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            pollfd p{fd, POLLIN, 0};
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000))) < 0)
                return std::nullopt;
            if (p.revents != 0 && !fill())
                closed = true;
        }
    }
    // Reads what is there; false at end of file or an error.
    bool fill()
    {
        char chunk[4096];
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n > 0)
            buffer.append(chunk, static_cast<std::size_t>(n));
        return n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN));
    }
};

// The command in a child of its own process group, its stdout and stderr into pipes: `program` run with `args`, as
// the one-shot way runs it (a wrapper script given as --remote-cli included), or with no program this CLI's own
// command line in the fork.
pid_t startCommand(const std::string& program, const std::vector<std::string>& args, int out[2], int err[2])
{
    if (::pipe2(out, O_CLOEXEC) != 0)
        return -1;
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        return -1;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a killed worker takes its request along
        std::signal(SIGPIPE, SIG_DFL);
        const int null = ::open("/dev/null", O_RDONLY);
        ::dup2(null, 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        // Not the worker's connections or listener: the command's end must not wait on them.
        for (int fd = 3; fd < 1024; ++fd)
            ::close(fd);
        if (!program.empty()) {
            std::vector<char*> argv = {const_cast<char*>(program.c_str())};
            for (const std::string& a : args)
                argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(program.c_str(), argv.data());
            std::cerr << "costscope-cli worker: cannot run " << program << '\n';
            ::_exit(127);
        }
        int code = 70;
        try {
            code = runCommandLine(args);
        } catch (...) {
            std::cerr << "costscope-cli worker: the command threw\n";
        }
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        ::_exit(code);
    }
    if (pid > 0)
        ::setpgid(pid, pid); // both sides set it: whichever runs first
    ::close(out[1]);
    ::close(err[1]);
    if (pid < 0) {
        ::close(out[0]);
        ::close(err[0]);
    }
    return pid;
}

void acceptBusy(int listener)
{
    const int c = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0)
        return;
    send(c, {{"error", "busy"}});
    ::close(c);
}

// Runs one request and answers it on `out`. false when `in` reached end of file meanwhile (the request was killed).
bool serveRequest(LineReader& in, int out, int listener, const std::string& program, const Json& request)
{
    std::vector<std::string> args;
    Json missing = Json::array();
    try {
        args = request.at("args").get<std::vector<std::string>>();
        for (const std::string& f : request.value("required", std::vector<std::string>{})) {
            struct stat st {};
            if (::stat(f.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
                missing.push_back(f);
        }
    } catch (const Json::exception&) {
        return send(out, {{"error", "request"}});
    }
    if (!send(out, {{"alive", true}})) // the client's sign that the request was taken
        return false;
    if (!missing.empty())
        return send(out,
                    {{"exit", kWorkerFileMissing}, {"out", ""}, {"missing", missing}, {"version", COSTSCOPE_VERSION}});
    int outPipe[2], errPipe[2];
    const pid_t pid = startCommand(program, args, outPipe, errPipe);
    if (pid < 0)
        return send(out, {{"exit", 70}, {"out", ""}, {"version", COSTSCOPE_VERSION}});
    std::string stdoutText, pendingErr;
    int fds[2] = {outPipe[0], errPipe[0]};
    // Reads what a pipe holds without waiting (a process the command left behind may hold its other end).
    const auto readPipe = [&](int i) {
        char chunk[8192];
        for (;;) {
            const ssize_t n = ::read(fds[i], chunk, sizeof chunk);
            if (n > 0) {
                (i == 0 ? stdoutText : pendingErr).append(chunk, static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                ::close(fds[i]);
                fds[i] = -1;
            }
            return;
        }
    };
    for (int fd : fds)
        ::fcntl(fd, F_SETFL, O_NONBLOCK);
    int status = 0;
    bool exited = false, clientGone = false;
    auto lastSent = Clock::now();
    const auto sendErrLines = [&](bool all) {
        for (std::size_t nl; (nl = pendingErr.find('\n')) != std::string::npos; pendingErr.erase(0, nl + 1)) {
            clientGone = clientGone || !send(out, {{"err", pendingErr.substr(0, nl)}});
            lastSent = Clock::now();
        }
        if (all && !pendingErr.empty())
            clientGone = clientGone || !send(out, {{"err", pendingErr}});
    };
    while (!exited) {
        pollfd p[4] = {
            {fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}, {in.closed ? -1 : in.fd, POLLIN, 0}, {listener, POLLIN, 0}};
        ::poll(p, 4, 200);
        for (int i = 0; i < 2; ++i)
            if (fds[i] >= 0 && p[i].revents != 0)
                readPipe(i);
        sendErrLines(false);
        if (p[2].revents != 0 && !in.fill())
            in.closed = true;
        if (p[3].revents != 0)
            acceptBusy(listener);
        if (Clock::now() - lastSent >= std::chrono::seconds(1)) {
            clientGone = clientGone || !send(out, {{"alive", true}});
            lastSent = Clock::now();
        }
        if (in.closed || clientGone) { // abandoned: free for the next request at once
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
            exited = ::waitpid(pid, &status, 0) == pid;
            break;
        }
        // A command may leave a process behind that holds the pipes: its own exit ends the request.
        exited = ::waitpid(pid, &status, WNOHANG) == pid;
    }
    for (int i = 0; i < 2; ++i)
        if (fds[i] >= 0) {
            readPipe(i);
            if (fds[i] >= 0)
                ::close(fds[i]);
        }
    if (!in.closed && !clientGone)
        sendErrLines(true);
    if (in.closed || clientGone)
        return false;
    Json answer = {{"exit", WIFEXITED(status) ? WEXITSTATUS(status) : -1}, {"out", stdoutText}};
    if (WIFSIGNALED(status))
        answer["signal"] = WTERMSIG(status);
    answer["version"] = COSTSCOPE_VERSION;
    return send(out, answer);
}
} // namespace

std::string fileIdentity(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return {};
    return std::to_string(st.st_dev) + ':' + std::to_string(st.st_ino) + ':' + std::to_string(st.st_size) + ':'
           + std::to_string(st.st_mtim.tv_sec) + '.' + std::to_string(st.st_mtim.tv_nsec) + ':'
           + std::to_string(st.st_ctim.tv_sec) + '.' + std::to_string(st.st_ctim.tv_nsec);
}

int serveStdin()
{
    std::signal(SIGPIPE, SIG_IGN);
    LineReader in{0, {}};
    for (;;) {
        const auto line = in.next(Clock::time_point::max());
        if (!line)
            return kOk;
        if (line->empty())
            continue;
        const Json request = Json::parse(*line, nullptr, false);
        const bool answered =
            request.is_object() ? serveRequest(in, 1, -1, {}, request) : send(1, {{"error", "request"}});
        if (!answered)
            return kOk;
    }
}

int serveListener(int listener, const std::string& token, const std::string& watched, int idleS)
{
    std::signal(SIGPIPE, SIG_IGN);
    const std::string identity = fileIdentity(watched);
    auto idleUntil = Clock::now() + std::chrono::seconds(idleS);
    for (;;) {
        pollfd p{listener, POLLIN, 0};
        ::poll(&p, 1, 1000);
        if (p.revents == 0) {
            if (fileIdentity(watched) != identity)
                return kOk; // reinstalled: the next client finds no worker and starts the new one
            if (Clock::now() >= idleUntil)
                return kOk;
            continue;
        }
        const int c = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0)
            continue;
        if (fileIdentity(watched) != identity) { // reinstalled meanwhile: the client starts the new one
            send(c, {{"error", "stale"}});
            ::close(c);
            return kOk;
        }
        LineReader in{c, {}};
        const auto line = in.next(Clock::now() + std::chrono::seconds(10));
        const Json request = line ? Json::parse(*line, nullptr, false) : Json();
        if (!request.is_object())
            send(c, {{"error", "request"}});
        else if (request.value("token", std::string()) != token)
            send(c, {{"error", "token"}});
        else
            serveRequest(in, c, listener, watched, request);
        ::close(c);
        idleUntil = Clock::now() + std::chrono::seconds(idleS);
    }
}

} // namespace costscope::cli
