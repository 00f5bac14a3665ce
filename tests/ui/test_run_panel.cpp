// SPDX-License-Identifier: MIT
// The Run panel: a run off the GUI thread fills the predicted-vs-measured table; Cancel and a new graph stop it.
#include "main_window.h"
#include "panels/run_panel.h"
#include "test_paths.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy loaded(&w, &MainWindow::graphLoaded);
    w.openFile(path);
    return loaded.wait(60000);
}
} // namespace

class TestRunPanel : public QObject {
    Q_OBJECT
private slots:
    void runFillsTheTable()
    {
        COSTSCOPE_REQUIRE_SHARED();
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(panel);
        QVERIFY(openAndWait(w, sharedPath("data/rlx/mnist.hir.json")));
        panel->findChild<QSpinBox*>()->setValue(2);
        QSignalSpy finished(panel, &RunPanel::finished);
        panel->runButton()->click();
        QVERIFY(!panel->runButton()->isEnabled()); // busy while the worker runs
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(panel->table()->rowCount() > 5);
        QVERIFY(panel->table()->item(0, 2)->data(Qt::DisplayRole).toDouble() > 0);
        QVERIFY(panel->runButton()->isEnabled());
    }
    void cancelStopsARun()
    {
        COSTSCOPE_REQUIRE_SHARED();
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, sharedPath("data/onnx/light/light_vgg19.onnx")));
        panel->findChild<QSpinBox*>()->setValue(1000);
        QSignalSpy finished(panel, &RunPanel::finished);
        panel->runButton()->click();
        QTest::qWait(200);
        panel->cancelButton()->click();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(panel->table()->rowCount(), 0);
    }
};

QTEST_MAIN(TestRunPanel)
#include "test_run_panel.moc"
