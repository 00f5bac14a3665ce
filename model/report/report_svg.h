// SPDX-License-Identifier: MIT
#pragma once

#include "report/report.h"

#include <string>

namespace costscope {

// SVG text written by hand: the shapes are few and fixed, and no Qt-free SVG writer is packaged for Debian.
std::string diagramSvg(const Report& r, std::size_t device); // boxes on a log heat scale, edges as polylines
// The report's diagram: the canvas's when the GUI gave one, else diagramSvg on the picked device.
std::string reportDiagramSvg(const Report& r);
std::string sweepChartSvg(const Report& r);                  // total cost vs the swept symbol, one line per device
std::string deviceBarSvg(const Report& r);                   // total cost per device
std::string xmlEscape(const std::string& s);
std::string heatColor(double t); // t in [0,1] → "#rrggbb", light to dark orange

} // namespace costscope
