// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace costscope::test {

// ../shared (or $COSTSCOPE_SHARED); empty when absent, so tests can QSKIP with a clear message.
QString sharedDir();
// Path under shared/, or empty when shared/ is absent.
QString sharedPath(const QString& relative);
// tests/data in the source tree.
QString testDataPath(const QString& relative);
QString sourcePath(const QString& relative);
QString binaryPath(const QString& relative);
// The built costscope-cli.
QString cliPath();
// Runs the CLI; returns the exit code and fills stdout/stderr.
int runCli(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr, int timeoutMs = 120000);

} // namespace costscope::test

// Skips the current test when ../shared is not there.
#define COSTSCOPE_REQUIRE_SHARED()                                                                                     \
    do {                                                                                                               \
        if (costscope::test::sharedDir().isEmpty())                                                                    \
            QSKIP("../shared not found (set COSTSCOPE_SHARED): shared graphs are needed for this test");             \
    } while (0)

// Skips the current data row when its file is a sharedPath() that ../shared could not give (an empty path), so that
// a row of shared graphs is counted as skipped, never left out quietly.
#define COSTSCOPE_REQUIRE_SHARED_FILE(path)                                                                            \
    do {                                                                                                               \
        if ((path).isEmpty())                                                                                          \
            QSKIP("../shared not found (set COSTSCOPE_SHARED): shared graphs are needed for this row");                \
    } while (0)
