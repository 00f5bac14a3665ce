// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace costscope {

struct ChildOptions {
    std::chrono::milliseconds timeout{60000};  // the whole run; the child is killed after it
    const std::atomic<bool>* cancel = nullptr; // set (from a signal handler or another thread): kill the child
    std::function<void(const std::string&)> onStderrLine; // each line the child writes to stderr, as it comes
    // stdin: a pipe held open until the child ends, instead of /dev/null. ssh forwards it, so that the remote side
    // sees end of file exactly when this side is gone (see RemoteCli::run).
    bool holdStdinOpen = false;
    std::string input; // written to stdin first (with holdStdinOpen)
    // Called with all of stdout so far after each read: true ends the child (killed), its answer being complete.
    // A client of ssh -W through a master connection needs it: it does not exit when the far end closes.
    std::function<bool(const std::string&)> answerComplete;
    // Kills the child when neither stdout nor stderr said anything for this long (0: never); before its first word on
    // stdout the limit is firstWordTimeout (a connection being made), when that is set.
    std::chrono::milliseconds silenceTimeout{0};
    std::chrono::milliseconds firstWordTimeout{0};
};

struct ChildResult {
    int exitCode = -1; // the child's exit status; -1 when it died of a signal or was killed
    int signal = 0;    // the signal it died of (SIGKILL when we killed it)
    bool timedOut = false;
    bool cancelled = false;
    bool silent = false;      // killed after silenceTimeout without a word
    bool answered = false;    // killed once answerComplete said the answer was complete
    bool startFailed = false; // the program could not be started (stderr says why)
    std::string out;          // all of stdout
    std::string err;          // all of stderr
};

// Runs argv[0] (looked up on PATH), collecting stdout and stderr, never waiting longer than
// the timeout. Written here because the engine is Qt-free (no QProcess) and no Debian C++ library offers a
// child with a deadline and a kill switch; it is posix_spawn, pipes and poll.
ChildResult runChild(const std::vector<std::string>& argv, const ChildOptions& options);

} // namespace costscope
