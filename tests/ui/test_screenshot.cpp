// SPDX-License-Identifier: MIT
// `costscope --screenshot`: a PNG of the expected size for the bundled CNN; exit 3 with the reason on a bad file.
#include "test_paths.h"
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestScreenshot : public QObject {
    Q_OBJECT
private slots:
    void writesPng()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("cnn.png"));
        QProcess p;
        p.start(costscope::test::binaryPath(QStringLiteral("app/costscope")),
                {QStringLiteral("--screenshot"), out, costscope::test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"))});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(out);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1600, 1000));
        // Not a blank window: the canvas has drawn boxes in more than a couple of colours.
        QSet<QRgb> colours;
        for (int y = 100; y < 600; y += 7)
            for (int x = 50; x < 1100; x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 5);
    }

    void sweepViewWritesPng()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("sweep.png"));
        QProcess p;
        p.start(costscope::test::binaryPath(QStringLiteral("app/costscope")),
                {QStringLiteral("--screenshot"), out, QStringLiteral("--view"), QStringLiteral("sweep"),
                 costscope::test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1600, 1000));
        // Curves drawn in all four quadrants, not empty axes: many colours in each.
        for (const QPoint origin : {QPoint(0, 60), QPoint(800, 60), QPoint(0, 530), QPoint(800, 530)}) {
            QSet<QRgb> colours;
            for (int y = 0; y < 400; y += 3)
                for (int x = 60; x < 780; x += 3)
                    colours.insert(image.pixel(origin.x() + x, origin.y() + y));
            QVERIFY(colours.size() > 20);
        }
    }

    // The first view at the size docs/first-view-*.png are taken at; a size that is not WxH in range exits 2.
    void sizeOptionSetsTheWindow()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("first.png"));
        const QString cnn = costscope::test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
        QProcess p;
        p.start(costscope::test::binaryPath(QStringLiteral("app/costscope")),
                {QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("1280x800"), cnn});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(out).size(), QSize(1280, 800));
        for (const char* bad : {"1280", "12x8", "wide"}) {
            QProcess q;
            q.start(costscope::test::binaryPath(QStringLiteral("app/costscope")),
                    {QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QLatin1String(bad), cnn});
            QVERIFY(q.waitForFinished(30000));
            QCOMPARE(q.exitCode(), 2);
            QVERIFY(QString::fromUtf8(q.readAllStandardError())
                        .contains(QStringLiteral("--size %1").arg(QLatin1String(bad))));
        }
    }

    void unknownViewExitsTwo()
    {
        QProcess p;
        p.start(costscope::test::binaryPath(QStringLiteral("app/costscope")),
                {QStringLiteral("--screenshot"), QStringLiteral("x.png"), QStringLiteral("--view"),
                 QStringLiteral("pie"), costscope::test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"))});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
    }

    void badFileExitsThree()
    {
        QTemporaryDir dir;
        QProcess p;
        const QString missing = dir.filePath(QStringLiteral("nope.json"));
        p.start(costscope::test::binaryPath(QStringLiteral("app/costscope")),
                {QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png")), missing});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 3);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(missing));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }
};

QTEST_GUILESS_MAIN(TestScreenshot)
#include "test_screenshot.moc"
