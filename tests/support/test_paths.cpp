// SPDX-License-Identifier: MIT
#include "test_paths.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>

namespace costscope::test {

QString sharedDir()
{
    QString dir = qEnvironmentVariable("COSTSCOPE_SHARED", QStringLiteral(COSTSCOPE_SHARED_DIR_DEFAULT));
    if (!QFileInfo(dir + "/data").isDir())
        return {};
    return QDir(dir).canonicalPath();
}

QString sharedPath(const QString& relative)
{
    const QString dir = sharedDir();
    return dir.isEmpty() ? QString() : dir + '/' + relative;
}

QString testDataPath(const QString& relative)
{
    return QStringLiteral(COSTSCOPE_TEST_DATA_DIR) + '/' + relative;
}

QString sourcePath(const QString& relative)
{
    return QStringLiteral(COSTSCOPE_SOURCE_DIR) + '/' + relative;
}

QString binaryPath(const QString& relative)
{
    return QStringLiteral(COSTSCOPE_BINARY_DIR) + '/' + relative;
}

QString cliPath()
{
    const QString env = qEnvironmentVariable("COSTSCOPE_CLI");
    return env.isEmpty() ? binaryPath("app/costscope-cli") : env;
}

int runCli(const QStringList& args, QByteArray* out, QByteArray* err, int timeoutMs)
{
    QProcess p;
    p.start(cliPath(), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    if (out)
        *out = p.readAllStandardOutput();
    if (err)
        *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

} // namespace costscope::test
