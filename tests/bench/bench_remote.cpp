// SPDX-License-Identifier: MIT
// What a remote run adds to a local one: `costscope-cli run` of the bundled CNN here and through --remote on an
// OpenSSH server on 127.0.0.1 (tests/remote/loopback_sshd.sh) with the same CLI, in alternating pairs so that the
// host's drift hits both alike. The first remote run opens the master connection and copies the graph (reported
// apart); the others reuse both, and are served by the host's worker (engine/remote/remote_worker.h), which starts
// no login shell; the one-shot path (--remote-worker off, one ssh command and its login shell per run) is measured
// beside it. Target: a warm remote run adds at most 300 ms (issue 23).
// usage: bench_remote [PAIRS]   (default 15)
#include "loopback_ssh.h"
#include "remote/child_process.h"
#include "remote/ssh_target.h"
#include "test_paths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>

using namespace costscope::test;

namespace {
double timedRun(const QStringList& args)
{
    QElapsedTimer clock;
    clock.start();
    QByteArray err;
    if (runCli(args, nullptr, &err, 60000) != 0) {
        std::fprintf(stderr, "run failed: %s\n", err.constData());
        std::exit(1);
    }
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
    const int pairs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    QTemporaryDir tmp;
    qputenv("HOME", tmp.filePath("home").toUtf8());
    QDir().mkpath(tmp.filePath("home"));
    const QString script = sourcePath("tests/remote/loopback_sshd.sh"), sshd = tmp.filePath("sshd");
    if (QProcess::execute("bash", {script, "start", sshd}) != 0) {
        std::printf("bench_remote: skipped, no OpenSSH server could be started on 127.0.0.1\n");
        return 0;
    }
    QFile portFile(sshd + "/port");
    portFile.open(QIODevice::ReadOnly);
    const QString port = QString::fromUtf8(portFile.readAll()).trimmed();
    const QStringList run = {"run",   sourcePath("resources/examples/cnn.hir.json"), "--runs", "5", "--no-host-probe",
                             "--json"};
    const QStringList remote = {"--remote",       loopbackUser() + "@127.0.0.1:" + port,
                                "--identity",     sshd + "/client_key",
                                "--ssh-option",   "StrictHostKeyChecking=no",
                                "--ssh-option",   "UserKnownHostsFile=" + sshd + "/known_hosts",
                                "--ssh-option",   "SetEnv=XDG_DATA_HOME=" + tmp.filePath("remote-data"),
                                "--remote-cli",   cliPath(),
                                "--remote-cache", tmp.filePath("remote-cache")};
    const double cold = timedRun(run + remote);
    // One bare round trip through the same master connection: the floor of any remote command (the remote login
    // shell's start-up included: a ~/.bashrc that runs `pyenv init` costs hundreds of ms there).
    costscope::SshTarget target;
    target.user = loopbackUser().toStdString();
    target.host = "127.0.0.1";
    target.port = port.toInt();
    target.identityFile = (sshd + "/client_key").toStdString();
    target.options = {"StrictHostKeyChecking=no", "UserKnownHostsFile=" + (sshd + "/known_hosts").toStdString()};
    std::vector<double> local, warm, added, oneShot, oneShotAdded, roundTrip, share;
    for (int i = 0; i < pairs; ++i) {
        local.push_back(timedRun(run));
        warm.push_back(timedRun(run + remote));
        added.push_back(warm.back() - local.back());
        oneShot.push_back(timedRun(run + remote + QStringList{"--remote-worker", "off"}));
        oneShotAdded.push_back(oneShot.back() - local.back());
        QElapsedTimer clock;
        clock.start();
        costscope::runChild(costscope::sshCommand(target, "true"), {});
        roundTrip.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        share.push_back(oneShotAdded.back() - roundTrip.back());
    }
    double load[3] = {0, 0, 0};
    ::getloadavg(load, 3);
    std::printf("costscope-cli run cnn.hir.json --runs 5, %d rounds (median wall ms)\n", pairs);
    std::printf("  local                      %8.1f\n", median(local));
    std::printf("  remote, warm (worker)      %8.1f   ratio to local %.2f\n", median(warm),
                median(warm) / median(local));
    std::printf("  remote, warm (one-shot)    %8.1f   ratio to local %.2f\n", median(oneShot),
                median(oneShot) / median(local));
    std::printf("  remote, first (connect+copy+worker start) %6.1f\n", cold);
    std::printf("  ssh round trip (`true`)    %8.1f   (the host's: its login shell's start-up included)\n",
                median(roundTrip));
    std::printf("  added by the remote run    %8.1f   target <= 300 ms: %s\n", median(added),
                median(added) <= 300 ? "met" : "MISSED");
    std::printf("  added one-shot             %8.1f   of which not the round trip %.1f\n", median(oneShotAdded),
                median(share));
    std::printf("  load average %.2f %.2f %.2f on %ld cores\n", load[0], load[1], load[2],
                ::sysconf(_SC_NPROCESSORS_ONLN));
    killRemoteWorkers(tmp.filePath("remote-data")); // the host's worker this bench started
    QProcess::execute("bash", {script, "stop", sshd});
    return 0;
}
