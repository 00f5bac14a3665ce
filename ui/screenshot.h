// SPDX-License-Identifier: MIT
#pragma once
#include <QSize>
#include <QString>

namespace costscope {

// Opens `file` in a main window of `size`, waits for loading and layout, writes the window as a PNG.
// Returns 0, 3 when the file does not load (error says why) or 1 when the image cannot be written.
int renderScreenshot(const QString& file, const QString& out, QSize size, QString* error);

} // namespace costscope
