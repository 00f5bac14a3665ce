// SPDX-License-Identifier: MIT
// The Calibration tab's evaluation on unseen families and the GUI calibration's kernel predictors: "Calibrate this
// device" with "Learn kernel predictors" stores them as costscope-cli calibrate does; "Evaluate on unseen families"
// measures the chosen zoo families on the CPU and shows costscope-cli evaluate's table, read back here; without a
// calibrated profile it says what to do; a report fed directly fills both tables.
#include "analysis/profile_io.h"
#include "panels/evaluation_view.h"
#include "panels/profile_tools.h"
#include "train/kernel_predictor_train.h"

#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace costscope;

class TestEvaluationView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

    void showsAReport()
    {
        EvaluationView view;
        EvaluationReport r;
        r.families = {"gpt", "mlp"};
        r.models = {{"rlx parity", {10, 60.0, 0.1, 0.3}, {100, 50.0, 0.2, 0.4}},
                    {"costscope learned", {10, 9.5, 0.7, 0.9}, {100, 20.0, 0.5, 0.85}}};
        r.worst = {{"costscope learned", "gpt", "gpt-h256-s512-l1", 1, 1.46e6, 1.0e6}};
        view.showReport(r, QStringLiteral("cuda (test)"));
        QTableWidget* t = view.accuracyTable();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(1, 0)->text(), QStringLiteral("costscope learned"));
        QCOMPARE(t->item(1, 2)->data(Qt::UserRole).toDouble(), 70.0); // graphs within ±10 %
        QCOMPARE(t->item(1, 4)->data(Qt::UserRole).toDouble(), 9.5);  // MAPE
        QCOMPARE(t->item(1, 6)->data(Qt::UserRole).toDouble(), 85.0); // nodes within ±25 %
        QCOMPARE(view.worstTable()->rowCount(), 1);
        QCOMPARE(view.worstTable()->item(0, 5)->data(Qt::UserRole).toDouble(), 46.0);
        QVERIFY(view.status()->text().contains(QStringLiteral("gpt, mlp")));
    }

    void withoutACalibrationSaysWhatToDo()
    {
        EvaluationView view;
        view.setBackend("cpu");
        QSignalSpy evaluated(&view, &EvaluationView::evaluated);
        view.evaluateButton()->click();
        QCOMPARE(evaluated.size(), 1);
        QCOMPARE(evaluated.first().first().toBool(), false);
        QVERIFY2(view.status()->text().contains(QStringLiteral("calibrate this device first")),
                 qPrintable(view.status()->text()));
        view.familiesEdit()->setText(QStringLiteral("mlp,nope"));
        view.evaluateButton()->click();
        QVERIFY2(view.status()->text().contains(QStringLiteral("Unknown zoo family nope")),
                 qPrintable(view.status()->text()));
    }

    void calibratesWithPredictorsThenEvaluates()
    {
        if (!predictorTrainingAvailable())
            QSKIP("this build has no XGBoost (COSTSCOPE_WITH_XGBOOST)");
        ProfileTools tools;
        tools.setBackend("cpu");
        QVERIFY(tools.predictorsCheck()->isChecked());
        tools.quickCheck()->setChecked(true);
        // A small calibration budget: what is checked is that predictors are learned, stored and evaluated, not how
        // good they are.
        tools.setCalibrationBudget(2, 3);
        QSignalSpy calibrated(&tools, &ProfileTools::calibrated);
        tools.calibrateButton()->click();
        QVERIFY(calibrated.wait(400000));
        QVERIFY2(calibrated.first().first().toBool(), qPrintable(tools.status()->text()));
        auto saved = loadProfileFile(m_home.filePath("costscope/profiles/calibrated-cpu.json").toStdString());
        QVERIFY(saved);
        QVERIFY2(saved->kernelPredictors && !saved->kernelPredictors->empty(), "no kernel predictors stored");

        EvaluationView* view = tools.evaluation();
        view->quickCheck()->setChecked(true);
        view->familiesEdit()->setText(QStringLiteral("mlp, resnet"));
        // A small evaluation budget too (runs per graph, seconds of the kernel sampler's graphs): what is checked is
        // that every model's row and the worst misses are filled, not how close the figures are. The sampler's
        // graphs alone took some 40 s of Quick's evaluation; they come in rotation over the kernel classes.
        view->setEvaluationBudget(0.02, 3);
        QSignalSpy evaluated(view, &EvaluationView::evaluated);
        view->evaluateButton()->click();
        QVERIFY(view->busy());
        QVERIFY(evaluated.wait(400000));
        QVERIFY2(evaluated.first().first().toBool(), qPrintable(view->status()->text()));
        QTableWidget* t = view->accuracyTable();
        QCOMPARE(t->rowCount(), 4); // RLX parity, analytic, class-corrected, learned
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("rlx parity"));
        QVERIFY(t->item(3, 1)->data(Qt::UserRole).toInt() >= 4);
        for (int r = 0; r < t->rowCount(); ++r)
            QVERIFY(t->item(r, 2)->data(Qt::UserRole).toDouble() <= t->item(r, 3)->data(Qt::UserRole).toDouble());
        QVERIFY(view->worstTable()->rowCount() > 0);
        QVERIFY(view->status()->text().contains(QStringLiteral("mlp, resnet")));
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestEvaluationView)
#include "test_evaluation_view.moc"
