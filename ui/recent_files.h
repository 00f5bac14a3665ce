// SPDX-License-Identifier: MIT
#pragma once
#include <QStringList>

namespace costscope {

// The recently opened graphs (QSettings "recentFiles"), newest first, each file once: "dir/../x.onnx", a symlink
// and the plain path are one entry (lists written before paths were made canonical may hold repeats).
QStringList recentFiles();
// Puts `path` first, keeping at most kMaxRecentFiles.
void addRecentFile(const QString& path);
// "model.onnx", or "model.onnx (/dir)" where two recent files share the name.
QString recentFileLabel(const QString& path, const QStringList& recent);

inline constexpr int kMaxRecentFiles = 10;

} // namespace costscope
