// SPDX-License-Identifier: MIT
#include "ray_head.h"

#include "test_paths.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcessEnvironment>

#include <csignal>

namespace costscope::test {

RayHead::RayHead(const QString& tempDir)
{
    const QString ray = sourcePath(".ray-venv/bin/ray");
    if (!QFile::exists(ray)) {
        m_skip = "no Ray here (scripts/setup_ray.sh installs a pinned one into .ray-venv); the fake Jobs API stood in";
        return;
    }
    m_head.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("RAY_USAGE_STATS_ENABLED", "0");
    m_head.setProcessEnvironment(env);
    const int port = 20000 + static_cast<int>(QCoreApplication::applicationPid() % 20000);
    m_head.start(ray, {"start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--dashboard-host", "127.0.0.1",
                       "--port", QString::number(port), "--dashboard-port", QString::number(port + 1),
                       "--ray-client-server-port", QString::number(port + 2), "--num-cpus", "2", "--temp-dir", tempDir,
                       "--disable-usage-stats"});
    QString log;
    for (int waited = 0; waited < 90000 && !log.contains("Ray runtime started"); waited += 500) {
        m_head.waitForReadyRead(500);
        log += QString::fromUtf8(m_head.readAll());
        if (m_head.state() == QProcess::NotRunning)
            break;
    }
    if (log.contains("Ray runtime started"))
        m_url = "http://127.0.0.1:" + QString::number(port + 1);
    else
        m_skip = "the Ray head did not start: " + log.right(300);
}

RayHead::~RayHead()
{
    if (m_head.state() == QProcess::NotRunning)
        return;
    ::kill(static_cast<pid_t>(m_head.processId()), SIGTERM);
    if (!m_head.waitForFinished(30000))
        m_head.kill();
}

} // namespace costscope::test
