// SPDX-License-Identifier: MIT
#pragma once

#include <QProcess>
#include <QString>

namespace costscope::test {

// A real Ray head on 127.0.0.1 (`ray start --head --block` from .ray-venv, which scripts/setup_ray.sh installs), for
// the tests that sweep on Ray itself. --block: the head lives exactly as long as this object, and stopping it stops
// the head's processes (`ray stop` would stop every Ray of this user on the machine).
class RayHead {
public:
    // Starts the head with its files under `tempDir`; waits up to 90 s for it.
    explicit RayHead(const QString& tempDir);
    ~RayHead();
    RayHead(const RayHead&) = delete;
    RayHead& operator=(const RayHead&) = delete;

    // The Jobs REST API (the dashboard's address); empty when the head is not running.
    QString url() const { return m_url; }
    // Why there is no head: no .ray-venv here, or what the head said as it failed.
    QString skipReason() const { return m_skip; }

private:
    QProcess m_head;
    QString m_url;
    QString m_skip;
};

} // namespace costscope::test
