// SPDX-License-Identifier: MIT
#include "loopback_ssh.h"

#include <QDir>
#include <QFile>
#include <QMap>

#include <csignal>
#include <pwd.h>
#include <unistd.h>

namespace costscope::test {

QString loopbackUser()
{
    const passwd* pw = ::getpwuid(::getuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : QString("root");
}

QStringList takeLines(const QString& log)
{
    QFile f(log);
    const QStringList lines =
        f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts) : QStringList{};
    f.remove();
    return lines;
}

QList<int> remoteWorkerPids(const QString& xdgDataHome)
{
    const QByteArray marker = "XDG_DATA_HOME=" + xdgDataHome.toUtf8();
    QList<int> workers;
    QMap<int, int> parents; // of every process started with the marker
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
        QFile environ("/proc/" + pid + "/environ"), cmdline("/proc/" + pid + "/cmdline"),
            stat("/proc/" + pid + "/stat");
        if (!environ.open(QIODevice::ReadOnly) || !environ.readAll().contains(marker))
            continue;
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(QByteArray("worker\0--listen", 15)))
            workers.push_back(pid.toInt());
        else if (stat.open(QIODevice::ReadOnly)) {
            const QString text = QString::fromUtf8(stat.readAll());
            parents[pid.toInt()] = text.mid(text.lastIndexOf(')') + 2).split(' ').value(1).toInt();
        }
    }
    QList<int> pids = workers;
    for (auto p = parents.begin(); p != parents.end(); ++p)
        if (workers.contains(p.value()))
            pids.push_back(p.key());
    return pids;
}

void killRemoteWorkers(const QString& xdgDataHome)
{
    for (int pid : remoteWorkerPids(xdgDataHome))
        ::kill(pid, SIGKILL);
}

} // namespace costscope::test
