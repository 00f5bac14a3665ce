// SPDX-License-Identifier: MIT
#include "panels/summary_panel.h"
#include "canvas/overlay_model.h"
#include "ir/graph_summary.h"

namespace costscope {
namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

} // namespace

SummaryPanel::SummaryPanel(QWidget* parent) : QTextBrowser(parent) { setOpenLinks(false); }

void SummaryPanel::showSummary(const Graph* graph, const GraphCost* cost)
{
    if (!graph) {
        setHtml(tr("<p>No graph open.</p>"));
        return;
    }
    const GraphSummary s = summarize(*graph);
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing=2>").arg(esc(s.name.empty() ? "(unnamed)" : s.name));
    auto row = [&html](const QString& k, const QString& v) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, v);
    };
    row(tr("Nodes"), QString::number(s.nodeCount));
    row(tr("Parameters"), QStringLiteral("%1 (%2)").arg(s.paramCount).arg(formatBytes(static_cast<double>(s.paramBytes))));
    QStringList symbols;
    for (const auto& sym : s.symbols)
        symbols << esc(sym);
    row(tr("Symbols"), symbols.isEmpty() ? tr("none") : symbols.join(QStringLiteral(", ")));
    if (s.unknownOps > 0)
        row(tr("Unknown ops"), QString::number(s.unknownOps));
    if (cost)
        row(tr("Total cost"), QStringLiteral("%1 (%2, %3)").arg(formatNs(cost->totalNs), esc(cost->model), esc(cost->profile)));
    html += QStringLiteral("</table><h4>%1</h4><ul>").arg(tr("Inputs"));
    for (const auto& t : s.inputs)
        html += QStringLiteral("<li>%1: %2</li>").arg(esc(t.name), esc(t.shape.toString()));
    html += QStringLiteral("</ul><h4>%1</h4><ul>").arg(tr("Outputs"));
    for (const auto& t : s.outputs)
        html += QStringLiteral("<li>%1: %2</li>").arg(esc(t.name), esc(t.shape.toString()));
    html += QStringLiteral("</ul><h4>%1</h4><table>").arg(tr("Ops"));
    for (const auto& [op, count] : s.opHistogram)
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>").arg(esc(op)).arg(count);
    html += QStringLiteral("</table>");
    setHtml(html);
}

} // namespace costscope
