// SPDX-License-Identifier: MIT
#pragma once
#include <QSize>
#include <QString>

namespace costscope {

// Opens `file` in a main window of `size`, waits for loading and layout, writes the window as a PNG, or with
// `dock` (an object name: "topNodesDock", "rooflineDock") that dock alone, floated at `size`.
// Returns 0, 3 when the file does not load (error says why), 2 for an unknown dock or 1 when the image cannot be
// written.
int renderScreenshot(const QString& file, const QString& out, QSize size, QString* error, const QString& dock = {});

} // namespace costscope
