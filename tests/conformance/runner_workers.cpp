// SPDX-License-Identifier: MIT
#include "runner_workers.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

extern char** environ;

namespace costscope::conformance {
namespace {

std::string oneLine(std::string s)
{
    for (char& c : s)
        if (c == '\n' || c == '\t')
            c = ' ';
    return s.substr(0, 400);
}

bool writeAll(int fd, const std::string& s)
{
    for (std::size_t done = 0; done < s.size();) {
        const ssize_t n = write(fd, s.data() + done, s.size() - done);
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

struct Worker {
    pid_t pid = -1;
    int in = -1;                 // its stdin (case directories)
    Output out;                  // its stdout (result lines)
    std::ptrdiff_t current = -1; // the case it runs; -1 when idle
    int finished = 0;
    std::chrono::steady_clock::time_point handedOut;
};

Worker spawn(const std::vector<std::string>& args)
{
    // Close-on-exec, so that no worker holds another's pipes open: a dead worker's stdout must read as the end.
    int toWorker[2], fromWorker[2];
    if (pipe2(toWorker, O_CLOEXEC) != 0 || pipe2(fromWorker, O_CLOEXEC) != 0) {
        std::perror("onnx_node_runner: pipe");
        std::exit(2);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, toWorker[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fromWorker[1], STDOUT_FILENO);
    // The parent ignores SIGPIPE (a write to a worker that just died); the worker gets the default back.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    Worker w;
    const int rc = posix_spawn(&w.pid, "/proc/self/exe", &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(toWorker[0]);
    close(fromWorker[1]);
    if (rc != 0) {
        std::cerr << "onnx_node_runner: cannot start a worker: " << std::strerror(rc) << '\n';
        std::exit(2);
    }
    w.in = toWorker[1];
    w.out.fd = fromWorker[0];
    return w;
}

// Ends a worker and returns its wait status. SIGKILL also for an idle one: it holds nothing worth a clean exit, and
// a backend's teardown could hang where a kill cannot.
int stop(Worker& w)
{
    close(w.in);
    kill(w.pid, SIGKILL);
    int status = 0;
    waitpid(w.pid, &status, 0);
    close(w.out.fd);
    return status;
}

} // namespace

std::string crashLine(int waitStatus)
{
    if (WIFSIGNALED(waitStatus))
        return std::string("crash\tsignal ") + std::to_string(WTERMSIG(waitStatus)) + " ("
               + strsignal(WTERMSIG(waitStatus)) + ")";
    return "crash\texit status " + std::to_string(WEXITSTATUS(waitStatus)) + " without a result";
}

std::string hangLine(double timeout)
{
    return "hang\tno result after " + std::to_string(static_cast<int>(timeout)) + " s";
}

void printResult(const std::string& caseDir, const std::string& line)
{
    const std::size_t tab = line.find('\t');
    std::cout << std::filesystem::path(caseDir).filename().string() << '\t' << line.substr(0, tab) << '\t'
              << oneLine(line.substr(tab + 1)) << '\n'
              << std::flush;
}

std::vector<bool> readOutputs(const std::vector<Output*>& outputs)
{
    std::vector<pollfd> fds;
    for (const Output* o : outputs)
        fds.push_back({o->fd, POLLIN, 0});
    poll(fds.data(), fds.size(), 100);
    std::vector<bool> ended(outputs.size(), false);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP)))
            continue;
        char buf[4096];
        const ssize_t n = read(fds[i].fd, buf, sizeof buf);
        if (n > 0)
            outputs[i]->text.append(buf, static_cast<std::size_t>(n));
        ended[i] = n <= 0;
    }
    return ended;
}

void runInWorkers(const std::vector<std::string>& caseDirs, const WorkerPool& pool)
{
    signal(SIGPIPE, SIG_IGN);
    std::vector<Worker> workers;
    std::size_t next = 0, reported = 0;
    auto handOut = [&](Worker& w) {
        w.current = static_cast<std::ptrdiff_t>(next);
        w.handedOut = std::chrono::steady_clock::now();
        // A failed write means the worker died: its stdout then ends and the case counts as its crash.
        (void)writeAll(w.in, caseDirs[next++] + '\n');
    };
    auto report = [&](const Worker& w, const std::string& line) {
        printResult(caseDirs[static_cast<std::size_t>(w.current)], line);
        ++reported;
    };
    while (reported < caseDirs.size()) {
        for (Worker& w : workers)
            if (w.current < 0 && next < caseDirs.size())
                handOut(w);
        while (next < caseDirs.size() && workers.size() < static_cast<std::size_t>(pool.jobs)) {
            workers.push_back(spawn(pool.workerArgs));
            handOut(workers.back());
        }
        std::vector<Output*> outputs;
        for (Worker& w : workers)
            outputs.push_back(&w.out);
        const std::vector<bool> ends = readOutputs(outputs);
        for (std::size_t i = workers.size(); i-- > 0;) {
            Worker& w = workers[i];
            bool retire = ends[i]; // it exited or died
            if (const std::size_t eol = w.out.text.find('\n'); eol != std::string::npos && w.current >= 0) {
                report(w, w.out.text.substr(0, eol));
                w.out.text.erase(0, eol + 1);
                w.current = -1;
                if (++w.finished >= pool.casesPerWorker)
                    retire = true;
            }
            const auto age = std::chrono::steady_clock::now() - w.handedOut;
            const bool late = w.current >= 0 && std::chrono::duration<double>(age).count() > pool.timeout;
            if (!retire && !late)
                continue;
            const int status = stop(w);
            if (w.current >= 0)
                report(w, ends[i] ? crashLine(status) : hangLine(pool.timeout));
            workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }
    for (Worker& w : workers)
        stop(w);
}

int takeResultChannel()
{
    // A worker ends with the runner (killed at run_node_suite.py's --deadline, say) instead of running on alone.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int channel = dup(STDOUT_FILENO);
    if (channel < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        std::perror("onnx_node_runner: worker stdout");
        std::exit(2);
    }
    return channel;
}

int serveCases(int channel, const std::function<std::string(const std::string& caseDir)>& runCase)
{
    std::string dir;
    while (std::getline(std::cin, dir)) {
        const std::string line = runCase(dir);
        const std::size_t tab = line.find('\t');
        if (!writeAll(channel, line.substr(0, tab) + '\t' + oneLine(line.substr(tab + 1)) + '\n'))
            return 1;
    }
    return 0;
}

} // namespace costscope::conformance
