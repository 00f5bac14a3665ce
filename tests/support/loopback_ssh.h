// SPDX-License-Identifier: MIT
#pragma once
// What the tests and the benchmark of --remote against the loopback OpenSSH server (tests/remote/loopback_sshd.sh)
// share.
#include <QList>
#include <QString>
#include <QStringList>

namespace costscope::test {

// The user the loopback server lets in: the one running it.
QString loopbackUser();
// The lines a logging wrapper wrote to `log`, which is removed for the next count.
QStringList takeLines(const QString& log);
// The hosts' workers (`costscope-cli worker --listen`, and the requests they run) started with this
// XDG_DATA_HOME, which the tests give each remote session through ssh's SetEnv.
QList<int> remoteWorkerPids(const QString& xdgDataHome);
void killRemoteWorkers(const QString& xdgDataHome);

} // namespace costscope::test
