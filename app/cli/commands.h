// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace costscope::cli {

using CommandFn = int (*)(const std::vector<std::string>& args);

struct Command {
    const char* name;
    const char* usage;   // one line: "info FILE [--json]"
    CommandFn run;
};

const std::vector<Command>& commands();
// `costscope-cli ARGV...` (argv without the program's name): what main runs, and the host's worker for each request.
int runCommandLine(const std::vector<std::string>& argv);

int cmdInfo(const std::vector<std::string>& args);
int cmdReport(const std::vector<std::string>& args);
int cmdDiff(const std::vector<std::string>& args);
int cmdImportTrace(const std::vector<std::string>& args);
int cmdConvert(const std::vector<std::string>& args);
int cmdGate(const std::vector<std::string>& args);
int cmdWelchPeaks(const std::vector<std::string>& args);
int cmdPick(const std::vector<std::string>& args);
int cmdAnalyze(const std::vector<std::string>& args);
int cmdSweep(const std::vector<std::string>& args);
int cmdProfiles(const std::vector<std::string>& args);
int cmdDevices(const std::vector<std::string>& args);
int cmdRun(const std::vector<std::string>& args);
int cmdCalibrate(const std::vector<std::string>& args);
int cmdFit(const std::vector<std::string>& args);
int cmdEvaluate(const std::vector<std::string>& args);
int cmdSweepRuns(const std::vector<std::string>& args);
int cmdWorker(const std::vector<std::string>& args);

} // namespace costscope::cli
