// SPDX-License-Identifier: MIT
#include "remote/child_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace costscope {

namespace {
using Clock = std::chrono::steady_clock;

struct Pipe {
    int read = -1, write = -1;
    bool open()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            return false;
        read = fds[0];
        write = fds[1];
        return true;
    }
    static void close(int& fd)
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
};

// Reads what is there without blocking; false once the pipe reached end of file.
bool drain(int fd, std::string* into)
{
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            into->append(buf, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
}

void emitLines(std::string& pending, const std::function<void(const std::string&)>& onLine, bool flush)
{
    std::size_t nl;
    while ((nl = pending.find('\n')) != std::string::npos) {
        if (onLine)
            onLine(pending.substr(0, nl));
        pending.erase(0, nl + 1);
    }
    if (flush && !pending.empty()) {
        if (onLine)
            onLine(pending);
        pending.clear();
    }
}
} // namespace

ChildResult runChild(const std::vector<std::string>& argv, const ChildOptions& options)
{
    ChildResult r;
    Pipe in, out, err;
    if (argv.empty() || !out.open() || !err.open() || (options.holdStdinOpen && !in.open())) {
        r.startFailed = true;
        r.err = argv.empty() ? "no program given" : std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (options.holdStdinOpen)
        posix_spawn_file_actions_adddup2(&actions, in.read, 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out.write, 1);
    posix_spawn_file_actions_adddup2(&actions, err.write, 2);
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    Pipe::close(in.read);
    Pipe::close(out.write);
    Pipe::close(err.write);
    if (spawned != 0) {
        Pipe::close(in.write);
        Pipe::close(out.read);
        Pipe::close(err.read);
        r.startFailed = true;
        r.err = "cannot start " + argv[0] + ": " + std::strerror(spawned);
        return r;
    }
    if (!options.input.empty()) {
        // A request of a few hundred bytes: the pipe's buffer (64 KiB) takes it without blocking.
        const ssize_t n = ::write(in.write, options.input.data(), options.input.size());
        if (n != static_cast<ssize_t>(options.input.size()))
            Pipe::close(in.write);
    }
    ::fcntl(out.read, F_SETFL, O_NONBLOCK);
    ::fcntl(err.read, F_SETFL, O_NONBLOCK);
    const auto deadline = Clock::now() + options.timeout;
    auto lastWord = Clock::now();
    std::string pendingErr;
    int status = 0;
    bool exited = false, killed = false;
    while (!exited) {
        pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
        const int open = (out.read >= 0) + (err.read >= 0);
        // Short polls: the child's exit, the deadline and the cancel flag are looked at ten times a second.
        if (open > 0)
            ::poll(fds[0].fd >= 0 ? fds : fds + 1, static_cast<nfds_t>(open), 100);
        else
            ::usleep(20000);
        const std::size_t outBefore = r.out.size();
        if (out.read >= 0 && !drain(out.read, &r.out))
            Pipe::close(out.read);
        const std::size_t before = r.err.size();
        if (err.read >= 0 && !drain(err.read, &r.err))
            Pipe::close(err.read);
        if (r.out.size() > outBefore || r.err.size() > before)
            lastWord = Clock::now();
        pendingErr += r.err.substr(before);
        emitLines(pendingErr, options.onStderrLine, false);
        exited = ::waitpid(pid, &status, WNOHANG) == pid;
        if (exited)
            break;
        if (killed)
            continue;
        const bool cancel = options.cancel && options.cancel->load();
        const auto now = Clock::now();
        if (options.answerComplete && r.out.size() > outBefore && options.answerComplete(r.out))
            r.answered = true;
        else if (cancel)
            r.cancelled = true;
        else if (now >= deadline)
            r.timedOut = true;
        else if (const auto silence = r.out.empty() && options.firstWordTimeout.count() > 0 ? options.firstWordTimeout
                                                                                            : options.silenceTimeout;
                 silence.count() > 0 && now - lastWord >= silence)
            r.silent = true;
        if (r.answered || r.cancelled || r.timedOut || r.silent) {
            ::kill(pid, SIGKILL);
            killed = true;
        }
    }
    // After the exit, what it wrote is in the pipes; a process it left behind (ssh's ControlPersist master) may hold
    // their write ends, so read what is there and do not wait for end of file.
    if (out.read >= 0)
        drain(out.read, &r.out);
    if (options.answerComplete && !killed && options.answerComplete(r.out))
        r.answered = true; // the child ended by itself once it had passed the answer on
    const std::size_t before = r.err.size();
    if (err.read >= 0)
        drain(err.read, &r.err);
    pendingErr += r.err.substr(before);
    emitLines(pendingErr, options.onStderrLine, true);
    Pipe::close(in.write);
    Pipe::close(out.read);
    Pipe::close(err.read);
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    return r;
}

} // namespace costscope
