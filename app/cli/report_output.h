// SPDX-License-Identifier: MIT
#pragma once

#include "report/report.h"

#include <string>

namespace costscope::cli {

// Writes the report in one of the report command's formats; prints errors to stderr and returns an exit code.
int writeReportOutput(const Report& r, const std::string& format, const std::string& path);

} // namespace costscope::cli
