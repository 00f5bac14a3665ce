// SPDX-License-Identifier: MIT
// What a new user meets, on real widgets (offscreen): the docks leave the canvas two thirds of the window at
// 1280×800 and 1920×1080; the empty window's prompt opens, reopens, takes drops and starts templates; the empty
// canvas's right-click menu; an opened graph shows fitted, on its costliest node when too large to read whole;
// Help's guide and shortcut list.
#include "canvas/canvas_view.h"
#include "canvas/empty_prompt.h"
#include "canvas/first_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "dock_layout.h"
#include "help_guide.h"
#include "jobs/cost_job.h"
#include "jobs/device_costs.h"
#include "main_window.h"
#include "test_paths.h"
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

using namespace costscope;

namespace {

QString cnn()
{
    return test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
}

// Waits until the opened graph is laid out and costed (the first view is then final).
bool openCostedAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
    w.openFile(path);
    if (!ready.wait(120000))
        return false;
    while (!w.overlay().cost())
        if (!costs.wait(120000))
            return false;
    QCoreApplication::processEvents();
    return true;
}

QRectF visibleSceneRect(const CanvasView* canvas)
{
    return canvas->mapToScene(canvas->viewport()->rect()).boundingRect();
}

// Sends a right click to the canvas at `pos` (viewport coordinates) and returns the texts of the menu that opened
// (closing it), triggering the entry named `trigger` when given.
QStringList rightClickMenu(CanvasView* canvas, QPoint pos, const QString& trigger = {})
{
    QStringList texts;
    bool seen = false;
    QTimer::singleShot(0, canvas, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu)
            return;
        seen = true;
        QAction* chosen = nullptr;
        for (QAction* a : menu->actions()) {
            if (a->isSeparator())
                continue;
            texts << a->text().remove(QLatin1Char('&'));
            if (texts.back() == trigger)
                chosen = a;
        }
        menu->close();
        if (chosen)
            chosen->trigger();
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, pos, canvas->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(canvas->viewport(), &event);
    return seen ? texts : QStringList{QStringLiteral("<no menu opened>")};
}

// A point of the viewport with no box under it.
std::optional<QPoint> emptyCanvasPoint(const CanvasView* canvas)
{
    const QRect r = canvas->viewport()->rect();
    for (int y = 4; y < r.height(); y += 12)
        for (int x = 4; x < r.width(); x += 12)
            if (!canvas->itemAt(QPoint(x, y)))
                return QPoint(x, y);
    return std::nullopt;
}

bool dropFile(QWidget* target, const QString& file)
{
    const QPoint local = target->rect().center();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(file)});
    QDragEnterEvent enter(local, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QDragMoveEvent move(local, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &move);
    if (!move.isAccepted())
        return false;
    QDropEvent drop(QPointF(local), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

} // namespace

class TestFirstContact : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }

    void docksLeaveTheCanvasTwoThirds_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void docksLeaveTheCanvasTwoThirds()
    {
        QFETCH(QSize, size);
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCoreApplication::processEvents();
        QCOMPARE(w.size(), size);
        const double share =
            double(w.canvas()->width()) * w.canvas()->height() / (double(size.width()) * size.height());
        qInfo("canvas %dx%d in a %dx%d window: %.1f %% of it", w.canvas()->width(), w.canvas()->height(), size.width(),
              size.height(), share * 100);
        QVERIFY2(share >= 2.0 / 3.0, qPrintable(QStringLiteral("canvas share %1").arg(share)));
        // Nothing was hidden to get there: Summary is on screen beside the canvas, and every other dock a tab away.
        auto* summary = w.findChild<QDockWidget*>(QStringLiteral("summaryDock"));
        QVERIFY(summary);
        QVERIFY(!summary->isFloating() && summary->width() >= kMinColumn - 10);
        QVERIFY(QRect(QPoint(), w.size()).contains(summary->geometry()));
        QVERIFY(summary->geometry().left() > w.canvas()->geometry().right());
        const auto tabs = w.tabifiedDockWidgets(summary);
        for (QDockWidget* dock : w.findChildren<QDockWidget*>()) {
            QVERIFY2(!dock->isFloating() && w.dockWidgetArea(dock) == Qt::RightDockWidgetArea,
                     qPrintable(dock->objectName()));
            QVERIFY2(dock == summary || tabs.contains(dock), qPrintable(dock->objectName()));
        }
    }

    void emptyWindowPromptOpensRecentFiles()
    {
        QSettings().setValue(QStringLiteral("recentFiles"), QStringList{cnn()});
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* prompt = w.findChild<EmptyCanvasPrompt*>();
        QVERIFY(prompt);
        QVERIFY(prompt->isVisible());
        QVERIFY(w.canvas()->viewport()->rect().contains(prompt->geometry()));
        QCOMPARE(prompt->recentButtons().size(), 1);
        QCOMPARE(prompt->recentButtons().front()->text(), QStringLiteral("cnn.hir.json"));
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        QTest::mouseClick(prompt->recentButtons().front(), Qt::LeftButton);
        QVERIFY(ready.wait(60000));
        QVERIFY(w.graph());
        QCOMPARE(w.currentFile(), cnn());
        QVERIFY(!prompt->isVisible());
    }

    void emptyWindowPromptOpenAsksForAFile()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* prompt = w.findChild<EmptyCanvasPrompt*>();
        QVERIFY(prompt && prompt->isVisible());
        QVERIFY(prompt->recentButtons().isEmpty());
        QString dialogTitle;
        QTimer::singleShot(100, &w, [&] {
            if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                dialogTitle = dialog->windowTitle();
                dialog->reject();
            }
        });
        QTest::mouseClick(prompt->openButton(), Qt::LeftButton);
        QCOMPARE(dialogTitle, QStringLiteral("Open graph"));
        QVERIFY(!w.graph());
        QVERIFY(prompt->isVisible());
    }

    void fileDroppedOnThePromptOpens()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* prompt = w.findChild<EmptyCanvasPrompt*>();
        QVERIFY(prompt);
        // Where Qt delivers the drag: the deepest widget under the cursor that takes drops.
        QWidget* target = w.childAt(prompt->mapTo(&w, prompt->rect().center()));
        while (target && !target->acceptDrops())
            target = target->parentWidget();
        QVERIFY(target);
        QCOMPARE(target, w.canvas()->viewport());
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        QVERIFY(dropFile(target, cnn()));
        QVERIFY(ready.wait(60000));
        QCOMPARE(w.currentFile(), cnn());
        QVERIFY(!prompt->isVisible());
    }

    void emptyWindowPromptStartsATemplate()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* prompt = w.findChild<EmptyCanvasPrompt*>();
        QVERIFY(prompt);
        QCOMPARE(prompt->templateButtons().size(), static_cast<int>(edit::graphTemplates().size()));
        QPushButton* transformer = nullptr;
        for (QPushButton* b : prompt->templateButtons())
            if (b->text() == QStringLiteral("Transformer block"))
                transformer = b;
        QVERIFY(transformer);
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        QTest::mouseClick(transformer, Qt::LeftButton);
        QVERIFY(ready.wait(60000));
        QVERIFY(w.graph());
        QVERIFY(w.graph()->nodes.size() > 5);
        QVERIFY(!prompt->isVisible());
    }

    void emptyCanvasRightClickMenu()
    {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QStringList empty = rightClickMenu(w.canvas(), QPoint(10, 10));
        QCOMPARE(empty, (QStringList{QStringLiteral("Open…"), QStringLiteral("Open Recent"),
                                     QStringLiteral("New from Template")}));

        w.setCostProvider(makeCostProvider());
        QVERIFY(openCostedAndWait(w, cnn()));
        const auto point = emptyCanvasPoint(w.canvas());
        QVERIFY(point);
        const QStringList shown = rightClickMenu(w.canvas(), *point);
        for (const char* entry :
             {"Fit", "Jump to Next Costliest Node", "Collapse All Groups", "Expand All Groups", "Minimap"})
            QVERIFY2(shown.contains(QLatin1String(entry)), qPrintable(shown.join(QLatin1String(", "))));
        w.canvas()->fitAll();
        const double fitted = w.canvas()->zoom();
        w.canvas()->zoomBy(3);
        QVERIFY(w.canvas()->zoom() > fitted * 2);
        rightClickMenu(w.canvas(), *emptyCanvasPoint(w.canvas()), QStringLiteral("Fit"));
        QVERIFY(w.canvas()->zoom() < fitted * 1.1);
        QVERIFY(visibleSceneRect(w.canvas()).contains(w.scene()->itemsBoundingRect()));
    }

    // A graph legible when fitted opens whole; one that is not opens at the legible zoom on its costliest node.
    void opensFittedOrLegibleOnTheCostliest_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("whole");
        QTest::newRow("options_bundle") << QStringLiteral("data/rlx/options_bundle_only.hir.json") << true;
        QTest::newRow("cnn") << QStringLiteral("data/rlx/cnn.hir.json") << true; // wrapped into columns, it reads whole
        QTest::newRow("gpt2") << QStringLiteral("data/onnx/transformers/gpt2_12l.onnx") << false;
    }

    void opensFittedOrLegibleOnTheCostliest()
    {
        COSTSCOPE_REQUIRE_SHARED();
        QFETCH(QString, file);
        QFETCH(bool, whole);
        MainWindow w;
        w.setCostProvider(makeCostProvider());
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openCostedAndWait(w, test::sharedPath(file)));
        const QRectF shown = visibleSceneRect(w.canvas());
        const QRectF all = w.scene()->itemsBoundingRect();
        qInfo("zoom %.2f, graph %.0fx%.0f", w.canvas()->zoom(), all.width(), all.height());
        QCOMPARE(shown.contains(all), whole);
        if (whole)
            return;
        QVERIFY(qAbs(w.canvas()->zoom() - kLegibleZoom) < 1e-9);
        const auto costliest = costliestNodes(*w.overlay().cost(), 1);
        QCOMPARE(costliest.size(), std::size_t(1));
        const NodeItem* item = w.scene()->itemForNode(costliest.front());
        QVERIFY(item);
        QVERIFY2(shown.contains(item->sceneBoundingRect().center()),
                 qPrintable(QStringLiteral("costliest node %1 out of view")
                                .arg(QString::fromStdString(w.graph()->nodes[costliest.front()].displayName()))));
    }

    void theTwoModelsAreExplained()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QComboBox* models = w.modelSelector();
        const QString rlx = models->itemData(models->findText(QStringLiteral("rlx")), Qt::ToolTipRole).toString();
        const QString own = models->itemData(models->findText(QStringLiteral("costscope")), Qt::ToolTipRole).toString();
        QVERIFY(rlx.contains(QStringLiteral("RLX parity")) && rlx.contains(QStringLiteral("Conv")));
        QVERIFY(own.contains(QStringLiteral("calibrated")));
        auto* button = w.findChild<QToolButton*>(QStringLiteral("explainModelsButton"));
        QVERIFY(button && button->isVisible());
        QTest::mouseClick(button, Qt::LeftButton);
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("modelsExplanation"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        for (const char* topic : {"RLX parity", "0 ns", "Which to trust", "calibrated profile", "measured run"})
            QVERIFY2(box->text().contains(QLatin1String(topic)), topic);
    }

    void helpListsTheGuideAndEveryShortcut()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::keyClick(&w, Qt::Key_F1);
        auto* dialog = w.findChild<HelpDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->tabs()->currentWidget(), dialog->guide());
        const QString guide = dialog->guide()->toPlainText();
        for (const char* topic : {"Open a graph", "drop", "RLX parity", "Conv", "trust", "Ctrl+J"})
            QVERIFY2(guide.contains(QLatin1String(topic)), topic);
        dialog->close();
        QTRY_VERIFY(!w.findChild<HelpDialog*>());

        auto* shortcutsAction = w.findChild<QAction*>(QStringLiteral("actionShortcuts"));
        QVERIFY(shortcutsAction);
        shortcutsAction->trigger();
        dialog = w.findChild<HelpDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->tabs()->currentWidget(), dialog->shortcuts());
        QMap<QString, QString> rows;
        for (int r = 0; r < dialog->shortcuts()->rowCount(); ++r)
            rows.insert(dialog->shortcuts()->item(r, 1)->text(), dialog->shortcuts()->item(r, 0)->text());
        // Read from the window's own actions: each one with a key is listed under that key.
        for (const char* name : {"actionFind", "actionOpen", "actionFit", "actionJumpCostliest", "actionExport"}) {
            auto* action = w.findChild<QAction*>(QLatin1String(name));
            QVERIFY2(action, name);
            QCOMPARE(rows.value(action->text().remove(QLatin1Char('&'))),
                     action->shortcut().toString(QKeySequence::NativeText));
        }
        QCOMPARE(rows.value(QStringLiteral("Find…")),
                 QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText));
        QVERIFY(rows.contains(QStringLiteral("Zoom around the cursor")));
    }
};

QTEST_MAIN(TestFirstContact)
#include "test_first_contact.moc"
