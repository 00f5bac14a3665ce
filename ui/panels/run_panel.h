// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "run_result.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace costscope {

class MainWindow;

// Runs the open graph on a backend off the GUI thread and lists measured vs predicted time per node (RLX parity
// and Costscope models). Cancel stops between nodes; results for a graph that is no longer open are dropped.
class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(MainWindow* window);
    ~RunPanel() override;

    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QTableWidget* table() const { return m_table; }

signals:
    void finished(bool ok);

private:
    void start();
    void showResult(quint64 generation, std::shared_ptr<const RunResult> result, const QString& error);
    void setBusy(bool busy);

    MainWindow* m_window;
    QComboBox* m_backend;
    QSpinBox* m_runs;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    quint64 m_generation = 0;
    std::shared_ptr<const Graph> m_runGraph;
};

// Creates the Run panel and docks it in the main window.
void installRunPanel(MainWindow* window);

} // namespace costscope
