// SPDX-License-Identifier: MIT
#include "app_identity.h"

#include <QGuiApplication>

namespace costscope {

void setApplicationIdentity()
{
    QGuiApplication::setOrganizationName(QStringLiteral("Costscope"));
    QGuiApplication::setApplicationName(QStringLiteral("costscope"));
    QGuiApplication::setApplicationVersion(QStringLiteral(COSTSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QString::fromLatin1(kAppId));
}

} // namespace costscope
