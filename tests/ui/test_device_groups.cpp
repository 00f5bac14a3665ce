// SPDX-License-Identifier: MIT
// The toolbar's device list in groups: a profile calibrated here and one calibrated on a remote host (saved in a
// temporary XDG_DATA_HOME), the shipped datasheet presets and RLX's device kinds, each under a bold header that
// cannot be picked, with the mouse or the keyboard. Costs are priced for every device and for no header.
#include "analysis/profile_library.h"
#include "analysis_settings_owner.h"
#include "canvas_driving.h"
#include "device_selector.h"
#include "jobs/cost_job.h"
#include "jobs/device_costs.h"
#include "test_paths.h"
#include <QComboBox>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;

class TestDeviceGroups : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(m_home.isValid());
        qputenv("HOME", m_home.filePath(QStringLiteral("home")).toUtf8());
        qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
        ProfileLibrary lib = ProfileLibrary::load(ProfilePaths::defaults());
        const DeviceProfile* preset = lib.find("generic-x86-16core");
        QVERIFY(preset);
        for (const char* name : {"calibrated-cpu", "10.0.0.5/calibrated-cpu"}) {
            DeviceProfile p = *preset;
            p.name = name;
            QVERIFY(lib.saveUserProfile(p));
        }
        reloadProfileLibrary();
    }

    void devicesListedUnderHeaders()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QComboBox* box = w.deviceSelector();
        QCOMPARE(box->currentText(), QStringLiteral("Cpu")); // RLX's default, as before the groups
        auto* model = qobject_cast<QStandardItemModel*>(box->model());
        QVERIFY(model);
        // Read back: header → its devices.
        QMap<QString, QStringList> groups;
        QStringList headers;
        for (int i = 0; i < box->count(); ++i) {
            if (isDeviceHeader(box, i)) {
                headers << box->itemText(i);
                const Qt::ItemFlags flags = model->item(i)->flags();
                QVERIFY(!(flags & Qt::ItemIsSelectable) && !(flags & Qt::ItemIsEnabled));
                QVERIFY(model->item(i)->font().bold());
                continue;
            }
            QVERIFY2(!headers.isEmpty(), "a device before the first header");
            groups[headers.last()] << box->itemText(i);
        }
        QCOMPARE(headers, QStringList({QStringLiteral("Local devices (calibrated here)"),
                                       QStringLiteral("Calibrated on other hosts"), QStringLiteral("Datasheet presets"),
                                       QStringLiteral("RLX device kinds")}));
        QCOMPARE(groups[headers[0]], QStringList{QStringLiteral("calibrated-cpu")});
        QCOMPARE(groups[headers[1]], QStringList{QStringLiteral("10.0.0.5/calibrated-cpu")});
        QVERIFY(groups[headers[2]].contains(QStringLiteral("nvidia-h100")));
        QVERIFY(groups[headers[3]].startsWith(QStringLiteral("Cpu")));
        QCOMPARE(deviceNamesOf(box).size(), box->count() - headers.size());

        // The keyboard steps over headers: Up from a group's first device lands on the previous group's last one.
        box->setFocus();
        box->setCurrentIndex(box->findText(QStringLiteral("10.0.0.5/calibrated-cpu")));
        QTest::keyClick(box, Qt::Key_Up);
        QCOMPARE(box->currentText(), QStringLiteral("calibrated-cpu"));
        QTest::keyClick(box, Qt::Key_Up); // only a header above: stays
        QCOMPARE(box->currentText(), QStringLiteral("calibrated-cpu"));
        QCOMPARE(w.analysisSettings()->value().device, std::string("calibrated-cpu"));

        // Every device is priced, and no header is taken for one.
        w.setCostProvider(makeCostProvider());
        QVERIFY(test::openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"))));
        QVERIFY(QTest::qWaitFor([&] { return w.deviceCosts() != nullptr; }, 60000));
        QVERIFY(w.deviceCosts()->find("calibrated-cpu"));
        QVERIFY(w.deviceCosts()->find("10.0.0.5/calibrated-cpu"));
        for (const QString& header : headers)
            QVERIFY(!w.deviceCosts()->find(header.toStdString()));

        // A profile saved later (calibration, fit) joins its group; the choice stays.
        ProfileLibrary lib = ProfileLibrary::load(ProfilePaths::defaults());
        DeviceProfile p = *lib.find("calibrated-cpu");
        p.name = "calibrated-cuda";
        QVERIFY(lib.saveUserProfile(p));
        w.reloadProfiles();
        QCOMPARE(box->currentText(), QStringLiteral("calibrated-cpu"));
        int row = box->findText(QStringLiteral("calibrated-cuda"));
        QVERIFY(row > 0);
        while (!isDeviceHeader(box, row))
            --row;
        QCOMPARE(box->itemText(row), headers[0]);
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestDeviceGroups)
#include "test_device_groups.moc"
