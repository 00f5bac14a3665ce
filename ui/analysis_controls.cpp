// SPDX-License-Identifier: MIT
#include "analysis_controls.h"
#include "analysis_settings_owner.h"
#include "canvas/legend_widget.h"
#include "device_selector.h"
#include "edit/precision_transform.h"
#include "jobs/cost_job.h"
#include "model_explainer.h"
#include "panels/bindings_editor.h"
#include "panels/search_bar.h"
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>

namespace costscope {

namespace {
constexpr const char* kRlxVersionKey = "analysis/rlxVersion";
} // namespace

AnalysisControls::AnalysisControls(AnalysisSettingsOwner* settings, QMainWindow* window)
    : QObject(window), m_settings(settings), m_window(window)
{
    m_bar = window->addToolBar(tr("Analysis"));
    m_bar->setObjectName(QStringLiteral("analysisToolBar"));
    m_bar->setMovable(false);
    m_model = new QComboBox(m_bar);
    m_model->addItems(costModelNames());
    m_model->setToolTip(tr("Cost model"));
    m_device = new QComboBox(m_bar);
    fillDeviceSelector(m_device);
    m_device->setToolTip(tr("Device"));
    m_batch = new QSpinBox(m_bar);
    m_batch->setRange(1, kMaxBinding); // the Bindings dock's range: both show one value (AnalysisSettingsOwner)
    m_batch->setValue(1);
    m_batch->setPrefix(tr("batch "));
    m_batch->setToolTip(tr("Value of the symbol 'batch'"));
    m_overlayMode = new QComboBox(m_bar);
    m_overlayMode->addItem(tr("Cost"), static_cast<int>(OverlayMode::Cost));
    m_overlayMode->addItem(tr("IO bytes"), static_cast<int>(OverlayMode::IoBytes));
    m_overlayMode->addItem(tr("Sync points"), static_cast<int>(OverlayMode::SyncPoints));
    m_overlayMode->addItem(tr("Dominant term"), static_cast<int>(OverlayMode::Dominant));
    m_overlayMode->addItem(tr("Measured time"), static_cast<int>(OverlayMode::Measured));
    m_overlayMode->addItem(tr("No overlay"), static_cast<int>(OverlayMode::None));
    m_legend = new LegendWidget(m_bar);
    m_search = new SearchBar(m_bar);
    m_bindings = new BindingsEditor(window);
    // The RLX version and precision go beside the model and device they pick among: before the batch.
    m_rlxVersion = makeRlxVersionSelector();
    m_precision = makePrecisionSelector();

    m_bar->addWidget(new QLabel(tr(" Model "), m_bar));
    m_bar->addWidget(m_model);
    m_bar->addWidget(new QLabel(tr(" Device "), m_bar));
    m_bar->addWidget(m_device);
    m_bar->addWidget(m_rlxVersion);
    m_bar->addWidget(m_precision);
    m_bar->addWidget(m_batch);
    m_bar->addWidget(makeBatchPresets());
    m_bar->addSeparator();
    m_bar->addWidget(new QLabel(tr(" Overlay "), m_bar));
    m_bar->addWidget(m_overlayMode);
    m_bar->addWidget(m_legend);
    m_bar->addSeparator();
    m_bar->addWidget(m_search);
    explainCostModels(m_model, window);

    connect(m_overlayMode, &QComboBox::currentIndexChanged, this,
            [this] { emit overlayModeChanged(static_cast<OverlayMode>(m_overlayMode->currentData().toInt())); });
    // The toolbar and the Bindings dock are views of the one settings owner, which the costs read.
    m_settings->bindModelSelector(m_model);
    m_settings->bindDeviceSelector(m_device);
    m_settings->bindBindingSpin(m_batch, "batch");
    bindBindingsEditor();
}

QWidget* AnalysisControls::makeBatchPresets()
{
    auto* button = new QToolButton(m_bar);
    button->setObjectName(QStringLiteral("batchPresets"));
    button->setText(tr("Presets"));
    button->setToolTip(tr("Batch presets"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    for (int preset : {1, 8, 64, 512, 4096}) {
        QAction* a = menu->addAction(QStringLiteral("batch %1").arg(preset), this,
                                     [this, preset] { m_batch->setValue(preset); });
        a->setObjectName(QStringLiteral("batchPreset%1").arg(preset));
    }
    button->setMenu(menu);
    return button;
}

QComboBox* AnalysisControls::makeRlxVersionSelector()
{
    auto* box = new QComboBox(m_bar);
    box->setObjectName(QStringLiteral("rlxVersion"));
    for (RlxVersion v : rlxVersions())
        box->addItem(tr("RLX %1").arg(QString::fromUtf8(rlxVersionName(v).data())), static_cast<int>(v));
    box->setToolTip(tr("Whose device pick: RLX 0.2.16 leaves Uncalibrated models (RLX's no-device fallbacks) out of "
                       "the ranking unless every device is Uncalibrated; RLX 0.2.14 ranks every model. Costs are the "
                       "same under both."));
    const auto saved = parseRlxVersion(QSettings().value(kRlxVersionKey).toString().toStdString(), kRlxVersionKey);
    box->setCurrentIndex(box->findData(static_cast<int>(saved ? *saved : kDefaultRlxVersion)));
    m_settings->bindRlxVersionSelector(box); // first: what follows reads the settings
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue(kRlxVersionKey, QString::fromUtf8(rlxVersionName(m_settings->value().rlxVersion).data()));
    });
    return box;
}

// The precision what-if: re-prices the fp32 graph as tf32, bf16, fp16 or fp8 (edit/precision_transform.h). The
// canvas keeps showing the document; the costs are those of the re-typed copy.
QComboBox* AnalysisControls::makePrecisionSelector()
{
    auto* box = new QComboBox(m_bar);
    box->setObjectName(QStringLiteral("precision"));
    for (Precision p : edit::kWhatIfPrecisions)
        box->addItem(QString::fromUtf8(precisionName(p).data()), static_cast<int>(p));
    box->setToolTip(tr("Precision what-if: price the graph's fp32 tensors as bf16, fp16 or fp8 (stored and computed "
                       "so: half or a quarter of the bytes, tensor-core GEMMs), or its GEMMs in tf32. The canvas "
                       "shows the graph as it is."));
    // A view of the settings: a change re-prices through the settings' changed(), like the model or a binding.
    m_settings->bindPrecisionSelector(box);
    return box;
}

void AnalysisControls::bindBindingsEditor()
{
    connect(m_bindings, &BindingsEditor::bindingsChanged, m_settings, [this] {
        Bindings all = m_settings->value().bindings;
        for (const auto& [symbol, value] : m_bindings->bindings())
            all[symbol] = value;
        m_settings->setBindings(all);
    });
    connect(m_settings, &AnalysisSettingsOwner::changed, m_bindings, [this] {
        // Quiet: a half-updated editor must not write its mix of old and new values back.
        const QSignalBlocker quiet(m_bindings);
        for (const auto& [symbol, value] : Bindings(m_settings->value().bindings))
            m_bindings->setValue(symbol, value);
    });
}

QDockWidget* AnalysisControls::addBindingsDock(QDockWidget* beside)
{
    auto* dock = new QDockWidget(tr("Bindings"), m_window);
    dock->setObjectName(QStringLiteral("bindingsDock"));
    dock->setWidget(m_bindings);
    m_window->addDockWidget(Qt::RightDockWidgetArea, dock);
    m_window->tabifyDockWidget(beside, dock);
    beside->raise();
    return dock;
}

void AnalysisControls::showSymbolsOf(const Graph* graph)
{
    const QSignalBlocker block(m_bindings);
    m_bindings->setGraph(graph);
    const QSignalBlocker quiet(m_settings);
    m_settings->setBindings(m_bindings->bindings());
}

void AnalysisControls::showBatchNote(const QString& note, bool pinned)
{
    if (note == m_batchNote)
        return;
    m_batchNote = note;
    m_batch->setToolTip(note.isEmpty() ? tr("Value of the symbol 'batch'") : note);
    m_batch->setStyleSheet(pinned ? QStringLiteral("QSpinBox { color: #a33; }") : QString());
    if (!note.isEmpty())
        m_window->statusBar()->showMessage(tr("Batch: %1").arg(note), 15000);
}

void AnalysisControls::showOverlay(OverlayMode mode)
{
    m_overlayMode->setCurrentIndex(m_overlayMode->findData(static_cast<int>(mode)));
}

} // namespace costscope
