// SPDX-License-Identifier: MIT
#include "help_guide.h"
#include <QAction>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace costscope {
namespace {

QString guideHtml()
{
    return QObject::tr(
        "<h3>Costscope in five steps</h3>"
        "<ol>"
        "<li><b>Open a graph</b>: File → Open (Ctrl+O), a recent file, or drop an ONNX model, an RLX HIR JSON or a "
        ".costscope file anywhere on the window. It opens fitted to the window, on its costliest part when it is "
        "too large to read whole.</li>"
        "<li><b>Read the colours</b>: each box is coloured by its predicted time on the toolbar's device (Overlay: "
        "cost, IO bytes, sync points, dominant term). Pale is cheap, red is where the time goes; View → Absolute "
        "Heat Scale keeps one scale across graphs. Ctrl+J walks the costliest nodes; the Top nodes dock ranks "
        "them.</li>"
        "<li><b>Pick the model</b>: <i>rlx</i> reproduces the RLX compiler's static cost model exactly (RLX parity): "
        "it prices only MatMul and Attention as compute and every other op, Conv included, by its output bytes, so it "
        "can say a Conv's compute is 0 ns. Use it to see what RLX will decide. <i>costscope</i> prices every op's "
        "FLOPs and bytes on a roofline and, with a calibrated profile (Run dock → Calibration), is fitted to measured "
        "runs: "
        "trust it for real time, and trust measured times over both.</li>"
        "<li><b>Find and navigate</b>: Ctrl+F searches node names and ops; double-click a group to open it one "
        "level or close it; right-click a node to show only its neighbourhood (Show all returns); the wheel zooms "
        "around the cursor, dragging pans, 0 fits; right-click the canvas for the view's actions.</li>"
        "<li><b>Measure and compare</b>: the Run dock runs the graph on this machine's CPU, CUDA or Vulkan and shows "
        "measured times beside the predictions; File → Compare With… puts two graphs side by side; File → Export "
        "writes "
        "images, a PDF report or a trace.</li>"
        "</ol>");
}

QString plainText(const QAction* action)
{
    QString text = action->text();
    text.remove(QLatin1Char('&'));
    return text;
}

} // namespace

QList<QPair<QString, QString>> windowShortcuts(const QWidget* window)
{
    QList<QPair<QString, QString>> out;
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcut().isEmpty() || plainText(action).isEmpty())
            continue;
        const QPair<QString, QString> entry(action->shortcut().toString(QKeySequence::NativeText), plainText(action));
        if (!out.contains(entry))
            out << entry;
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    // The canvas's own keys and gestures (CanvasView, GraphScene) have no action.
    out << qMakePair(QObject::tr("+ / −"), QObject::tr("Zoom the canvas in / out"))
        << qMakePair(QObject::tr("0"), QObject::tr("Fit the graph to the canvas"))
        << qMakePair(QObject::tr("Wheel"), QObject::tr("Zoom around the cursor"))
        << qMakePair(QObject::tr("Drag"), QObject::tr("Pan the canvas"))
        << qMakePair(QObject::tr("Double-click a group"), QObject::tr("Open or close the group"))
        << qMakePair(QObject::tr("Right-click"), QObject::tr("A node's or the canvas's actions"));
    return out;
}

HelpDialog::HelpDialog(QWidget* window, Page page)
    : QDialog(window), m_tabs(new QTabWidget(this)), m_guide(new QTextBrowser(this)),
      m_shortcuts(new QTableWidget(this))
{
    setObjectName(QStringLiteral("helpDialog"));
    setWindowTitle(tr("Costscope Help"));
    m_guide->setHtml(guideHtml());
    m_guide->setOpenExternalLinks(true);
    const auto shortcuts = windowShortcuts(window);
    m_shortcuts->setColumnCount(2);
    m_shortcuts->setHorizontalHeaderLabels({tr("Keys"), tr("Action")});
    m_shortcuts->setRowCount(static_cast<int>(shortcuts.size()));
    for (int row = 0; row < shortcuts.size(); ++row) {
        m_shortcuts->setItem(row, 0, new QTableWidgetItem(shortcuts[row].first));
        m_shortcuts->setItem(row, 1, new QTableWidgetItem(shortcuts[row].second));
    }
    m_shortcuts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_shortcuts->verticalHeader()->hide();
    m_shortcuts->horizontalHeader()->setStretchLastSection(true);
    m_shortcuts->resizeColumnToContents(0);
    m_tabs->addTab(m_guide, tr("Guide"));
    m_tabs->addTab(m_shortcuts, tr("Keyboard shortcuts"));
    m_tabs->setCurrentIndex(page == Guide ? 0 : 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    resize(640, 520);
}

void addHelpActions(QMainWindow* window)
{
    QMenu* help = nullptr;
    for (QAction* a : window->menuBar()->actions())
        if (a->menu() && plainText(a) == QObject::tr("Help"))
            help = a->menu();
    if (!help)
        help = window->menuBar()->addMenu(QObject::tr("&Help"));
    auto open = [window](HelpDialog::Page page) {
        auto* dialog = new HelpDialog(window, page);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    };
    auto* guide = new QAction(QObject::tr("&Quick Guide"), window);
    guide->setObjectName(QStringLiteral("actionQuickGuide"));
    guide->setShortcut(QKeySequence::HelpContents);
    QObject::connect(guide, &QAction::triggered, window, [open] { open(HelpDialog::Guide); });
    auto* keys = new QAction(QObject::tr("&Keyboard Shortcuts"), window);
    keys->setObjectName(QStringLiteral("actionShortcuts"));
    QObject::connect(keys, &QAction::triggered, window, [open] { open(HelpDialog::Shortcuts); });
    QAction* first = help->actions().value(0);
    help->insertActions(first, {guide, keys});
    if (first)
        help->insertSeparator(first);
}

} // namespace costscope
