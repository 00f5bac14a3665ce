// SPDX-License-Identifier: MIT
#pragma once
// Interop with other tools' files: File → Compare With… (the open graph beside another one, ui/diff/diff_window.h)
// and File → Import Measured Trace… (Chrome/Perfetto, ONNX Runtime profile or costscope-cli run JSON as the
// Measured overlay). Both files load off the GUI thread.
#include "diff/diff_window.h"
#include "document_controller.h"
#include "jobs/job_tracker.h"
#include <QObject>

class QMainWindow;
class QMenu;

namespace costscope {

class AnalysisControls;
class CostController;
class GraphPresenter;

class InteropController : public QObject {
    Q_OBJECT
public:
    InteropController(DocumentController* documents, GraphPresenter* presenter, CostController* costs,
                      AnalysisControls* controls, ErrorReporter reportError, QMainWindow* window);

    // File menu: Compare With…, Import Measured Trace….
    void addFileActions(QMenu* file);
    // Opens `path` and shows it beside the open graph (diffOpened, or a load error through the error reporter).
    void compareWith(const QString& path);
    // Loads a measured trace, matches its events to nodes by name and shows them as the Measured overlay;
    // traceImported says what matched and what did not (a trace that matches nothing is an error).
    void importTrace(const QString& path);

signals:
    void diffOpened(costscope::DiffWindow* window);
    void traceImported(const QString& report);

private:
    DocumentController* m_documents;
    GraphPresenter* m_presenter;
    CostController* m_costs;
    AnalysisControls* m_controls;
    ErrorReporter m_reportError;
    QMainWindow* m_window;
    JobTracker m_compareJob;
    JobTracker m_traceJob;
};

} // namespace costscope
