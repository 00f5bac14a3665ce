// SPDX-License-Identifier: MIT
// The main window's precision what-if: a toolbar combo that re-prices the fp32 graph as tf32, bf16, fp16 or fp8
// (edit/precision_transform.h). The canvas keeps showing the document; the costs are those of the re-typed copy.
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
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
        m_deviceCosts.reset(); // costed at the other precision
        ++m_deviceCostsGeneration;
        requestCosts();
    });
    return box;
}

Precision MainWindow::precision() const
{
    return m_precision ? static_cast<Precision>(m_precision->currentData().toInt()) : Precision::Fp32;
}

std::shared_ptr<const Graph> MainWindow::atPrecision(std::shared_ptr<const Graph> graph)
{
    if (!graph || precision() == Precision::Fp32)
        return graph;
    auto retyped = edit::withPrecision(*graph, precision());
    if (!retyped) {
        statusBar()->showMessage(
            tr("Precision %1: %2")
                .arg(m_precision->currentText(), QString::fromStdString(retyped.error().format(graph->name))),
            15000);
        return graph;
    }
    return std::make_shared<const Graph>(std::move(*retyped));
}

} // namespace costscope
