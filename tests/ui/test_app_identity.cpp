// SPDX-License-Identifier: MIT
// The GUI's identity: the desktop file name is packaging's application id, so shells match the windows with the
// installed .desktop file; the version is CMake's PROJECT_VERSION.
#include "app_identity.h"
#include "test_paths.h"

#include <QApplication>
#include <QFile>
#include <QtTest>

class TestAppIdentity : public QObject {
    Q_OBJECT
private slots:
    void identityMatchesPackaging()
    {
        costscope::setApplicationIdentity();
        const QString id = QStringLiteral("io.costscope.Costscope");
        QCOMPARE(QString::fromLatin1(costscope::kAppId), id);
        QCOMPARE(QGuiApplication::desktopFileName(), id);
        QCOMPARE(QCoreApplication::applicationVersion(), QStringLiteral(COSTSCOPE_PROJECT_VERSION));
        QCOMPARE(QCoreApplication::applicationName(), QStringLiteral("costscope"));

        // The packaging files carry the same id.
        QFile desktop(costscope::test::sourcePath("packaging/" + id + ".desktop"));
        QVERIFY(desktop.open(QIODevice::ReadOnly));
        const QByteArray entry = desktop.readAll();
        QVERIFY(entry.contains("Exec=costscope "));
        QVERIFY(entry.contains("Icon=" + id.toLatin1() + "\n"));
        QFile metainfo(costscope::test::sourcePath("packaging/" + id + ".metainfo.xml.in"));
        QVERIFY(metainfo.open(QIODevice::ReadOnly));
        const QByteArray xml = metainfo.readAll();
        QVERIFY(xml.contains("<id>" + id.toLatin1() + "</id>"));
        QVERIFY(xml.contains("<launchable type=\"desktop-id\">" + id.toLatin1() + ".desktop</launchable>"));
    }
};

QTEST_MAIN(TestAppIdentity)
#include "test_app_identity.moc"
