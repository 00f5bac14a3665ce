// SPDX-License-Identifier: MIT
#include "recent_files.h"
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <algorithm>

namespace costscope {
namespace {
const QString kRecentKey = QStringLiteral("recentFiles");

QString canonicalPath(const QString& path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(QFileInfo(path).absoluteFilePath()) : canonical;
}
} // namespace

QStringList recentFiles()
{
    QStringList out;
    for (const QString& path : QSettings().value(kRecentKey).toStringList())
        if (const QString p = canonicalPath(path); !out.contains(p))
            out << p;
    return out;
}

void addRecentFile(const QString& path)
{
    QStringList recent = recentFiles();
    const QString canonical = canonicalPath(path);
    recent.removeAll(canonical);
    recent.prepend(canonical);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
}

QString recentFileLabel(const QString& path, const QStringList& recent)
{
    const QFileInfo info(path);
    const auto sameName = std::count_if(recent.begin(), recent.end(), [&](const QString& other) {
        return QFileInfo(other).fileName() == info.fileName();
    });
    return sameName > 1 ? QStringLiteral("%1 (%2)").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath()))
                        : info.fileName();
}

} // namespace costscope
