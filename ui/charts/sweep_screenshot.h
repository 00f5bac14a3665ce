// SPDX-License-Identifier: MIT
#pragma once
#include <QSize>
#include <QString>

namespace costscope {

// Loads `file`, sweeps it as the Sweeps panel does by default and writes the panel as a PNG of `size`.
// Returns 0, 3 when the file does not load (error says why) or 1 when the image cannot be written.
int renderSweepScreenshot(const QString& file, const QString& out, QSize size, QString* error);

} // namespace costscope
