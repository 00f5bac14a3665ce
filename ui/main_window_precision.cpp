// SPDX-License-Identifier: MIT
// The main window's precision what-if: a toolbar combo that re-prices the fp32 graph as tf32, bf16, fp16 or fp8
// (edit/precision_transform.h). The canvas keeps showing the document; the costs are those of the re-typed copy.
// The precision lives in the analysis settings (saved with the document); the combo is a view of it.
#include "edit/precision_transform.h"
#include "main_window.h"
#include "panels/cost_summary_bar.h"
#include "panels/device_cost_table.h"

#include <QComboBox>
#include <QStatusBar>

namespace costscope {

QComboBox* MainWindow::makePrecisionSelector(QWidget* parent)
{
    auto* box = new QComboBox(parent);
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

Precision MainWindow::precision() const
{
    return m_settings->value().whatIfPrecision();
}

std::shared_ptr<const Graph> MainWindow::atPrecision(std::shared_ptr<const Graph> graph)
{
    const Precision p = precision();
    if (!graph || p == Precision::Fp32)
        return graph;
    auto retyped = edit::withPrecision(*graph, p);
    if (!retyped) {
        statusBar()->showMessage(tr("Precision %1: %2")
                                     .arg(QString::fromUtf8(precisionName(p).data()),
                                          QString::fromStdString(retyped.error().format(graph->name))),
                                 15000);
        return graph;
    }
    return std::make_shared<const Graph>(std::move(*retyped));
}

} // namespace costscope
