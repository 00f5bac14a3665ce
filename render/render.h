// SPDX-License-Identifier: MIT
#pragma once
// Qt-free interface on purpose: the CLI calls it without including Qt.
#include <string>

namespace costscope::render {

// Rasterises SVG text to a PNG file (white background; scaled down when larger than 8000 px a side).
bool svgToPng(const std::string& svg, const std::string& path, std::string* error);
// Paginates an HTML report into an A4 PDF; inline <svg> blocks are rasterised and placed as images, since
// QTextDocument's HTML subset has no SVG.
bool htmlToPdf(const std::string& html, const std::string& path, std::string* error);

} // namespace costscope::render
