// SPDX-License-Identifier: MIT
#pragma once
// The views of the analysis settings: the Analysis toolbar (model, device, RLX version, precision, batch and its
// presets, overlay, legend, search) and the Bindings dock, each bound to the one
// AnalysisSettingsOwner; and what the batch control says about the open graph.
#include "canvas/overlay_model.h"
#include <QObject>

class QComboBox;
class QDockWidget;
class QMainWindow;
class QSpinBox;
class QStatusBar;
class QToolBar;

namespace costscope {

class AnalysisSettingsOwner;
class BindingsEditor;
class LegendWidget;
class SearchBar;
class Graph;

class AnalysisControls : public QObject {
    Q_OBJECT
public:
    // Adds the Analysis toolbar to `window`; the Bindings dock comes with addBindingsDock.
    AnalysisControls(AnalysisSettingsOwner* settings, QMainWindow* window);

    QToolBar* toolBar() const { return m_bar; }
    QComboBox* modelSelector() const { return m_model; }
    QComboBox* deviceSelector() const { return m_device; }
    QComboBox* rlxVersionSelector() const { return m_rlxVersion; }
    QComboBox* precisionSelector() const { return m_precision; }
    QComboBox* overlaySelector() const { return m_overlayMode; }
    QSpinBox* batchSpin() const { return m_batch; }
    LegendWidget* legend() const { return m_legend; }
    SearchBar* searchBar() const { return m_search; }
    BindingsEditor* bindingsEditor() const { return m_bindings; }

    // The Bindings dock, tabified behind `beside` (the Summary dock).
    QDockWidget* addBindingsDock(QDockWidget* beside);
    // The new graph's symbols in the Bindings dock (shared ones keep their values), written to the settings quietly:
    // the costs are asked for by the caller.
    void showSymbolsOf(const Graph* graph);
    // What the batch control does on this graph (rebatched, or why it cannot change), on its tooltip and once in
    // the status bar.
    void showBatchNote(const QString& note, bool pinned);
    void showOverlay(OverlayMode mode);

signals:
    void overlayModeChanged(costscope::OverlayMode mode);

private:
    QWidget* makeBatchPresets();
    QComboBox* makeRlxVersionSelector();
    QComboBox* makePrecisionSelector();
    void bindBindingsEditor();

    AnalysisSettingsOwner* m_settings;
    QMainWindow* m_window;
    QToolBar* m_bar;
    QComboBox* m_model;
    QComboBox* m_device;
    QComboBox* m_rlxVersion;
    QComboBox* m_precision;
    QSpinBox* m_batch;
    QComboBox* m_overlayMode;
    LegendWidget* m_legend;
    SearchBar* m_search;
    BindingsEditor* m_bindings;
    QString m_batchNote;
};

} // namespace costscope
