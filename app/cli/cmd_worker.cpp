// SPDX-License-Identifier: MIT
// `costscope-cli worker`: the host side of --remote's long-lived worker (engine/remote/remote_worker.h). With
// --listen it is started by a one-shot run's shell line: it listens on 127.0.0.1, prints "PORT TOKEN" and leaves
// that session, so that later runs reach it through ssh -W without starting the login shell again.
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/worker_loop.h"

#include <arpa/inet.h>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace costscope::cli {

namespace {
// The secret a client shows: the loopback port is open to every user of the host.
std::string randomToken()
{
    unsigned char bytes[16] = {};
    const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    const bool read = fd >= 0 && ::read(fd, bytes, sizeof bytes) == static_cast<ssize_t>(sizeof bytes);
    if (fd >= 0)
        ::close(fd);
    if (!read)
        return {};
    std::string hex;
    for (unsigned char b : bytes) {
        constexpr const char* kDigits = "0123456789abcdef";
        hex += kDigits[b >> 4];
        hex += kDigits[b & 15];
    }
    return hex;
}

int listenOnLoopback(int* port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof a;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 8) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    *port = ntohs(a.sin_port);
    return fd;
}
} // namespace

int cmdWorker(const std::vector<std::string>& argv)
{
    std::string err;
    const auto args = Args::parse(argv, {"listen"}, {"watch", "idle-exit"}, &err);
    const auto idle = args ? parseInt(args->option("idle-exit").value_or("900")) : std::nullopt;
    if (!args || !args->positional().empty() || !idle || *idle < 1
        || (args->flag("listen") && !args->option("watch"))) {
        std::cerr << "usage: costscope-cli worker [--listen --watch FILE [--idle-exit S]]"
                  << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    if (!args->flag("listen"))
        return serveStdin();
    int port = 0;
    const int listener = listenOnLoopback(&port);
    const std::string token = randomToken();
    if (listener < 0 || token.empty()) {
        std::cerr << "costscope-cli worker: cannot listen on 127.0.0.1\n";
        return kBadInput;
    }
    std::cout.flush();
    const pid_t pid = ::fork();
    if (pid < 0)
        return kBadInput;
    if (pid > 0) {
        std::cout << port << ' ' << token << '\n';
        return kOk;
    }
    // The worker: out of the ssh session, which ends once nothing of it holds the session's streams.
    ::setsid();
    const int null = ::open("/dev/null", O_RDWR);
    for (int fd : {0, 1, 2})
        ::dup2(null, fd);
    for (int fd = 3; fd < 1024; ++fd)
        if (fd != listener)
            ::close(fd);
    std::_Exit(serveListener(listener, token, *args->option("watch"), static_cast<int>(*idle)));
}

} // namespace costscope::cli
