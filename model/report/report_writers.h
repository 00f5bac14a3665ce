// SPDX-License-Identifier: MIT
#pragma once

#include "report/report.h"

#include <string>

namespace costscope {

std::string reportJson(const Report& r); // schema: docs/report-schema.md
std::string reportCsv(const Report& r);  // one row per (node, device)
std::string reportHtml(const Report& r); // self-contained: inline CSS and SVG, no scripts, no external files
// Model Explorer node data (GraphNodeData) of one device's per-node cost in ns.
std::string reportNodeData(const Report& r, std::size_t device);

} // namespace costscope
