// SPDX-License-Identifier: MIT
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include <QFileInfo>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cmath>
#include <map>
#include <qcustomplot.h>

namespace costscope {

namespace {
// RFC 4180: a cell holding a comma, quote or line break is quoted, quotes doubled (node names may hold any).
QString csvCell(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    return QLatin1Char('"') + quoted.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

bool svg(QCustomPlot* plot, const QString& path, int width, int height)
{
    QSvgGenerator gen;
    gen.setFileName(path);
    gen.setSize(QSize(width, height));
    gen.setViewBox(QRect(0, 0, width, height));
    gen.setTitle(plot->property("chartTitle").toString());
    QCPPainter painter;
    if (!painter.begin(&gen))
        return false;
    plot->toPainter(&painter, width, height);
    return painter.end();
}
} // namespace

bool exportChart(QCustomPlot* plot, const QString& path, QString* error, int width, int height)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("png"))
        ok = plot->savePng(path, width, height);
    else if (suffix == QLatin1String("svg"))
        ok = svg(plot, path, width, height);
    else if (suffix == QLatin1String("pdf"))
        ok = plot->savePdf(path, width, height);
    else {
        *error = QStringLiteral("%1: unknown chart format '%2' (png, svg or pdf)").arg(path, suffix);
        return false;
    }
    if (!ok)
        *error = QStringLiteral("%1: cannot write the chart").arg(path);
    return ok;
}

bool exportChartCsv(QCustomPlot* plot, const QString& path, QString* error)
{
    std::map<double, std::vector<QString>> rows;
    QString header = csvCell(plot->xAxis->label());
    const int n = plot->graphCount();
    for (int i = 0; i < n; ++i) {
        QCPGraph* g = plot->graph(i);
        header += QLatin1Char(',') + csvCell(g->name());
        const std::vector<double> raw = rawValues(g);
        for (int k = 0; k < g->dataCount(); ++k) {
            auto& row = rows[g->dataMainKey(k)];
            row.resize(static_cast<std::size_t>(n));
            if (static_cast<std::size_t>(k) < raw.size() && std::isfinite(raw[static_cast<std::size_t>(k)]))
                row[static_cast<std::size_t>(i)] = QString::number(raw[static_cast<std::size_t>(k)], 'g', 17);
        }
    }
    QString text = header + QLatin1Char('\n');
    for (const auto& [key, cells] : rows) {
        text += QString::number(key, 'g', 17);
        for (const QString& c : cells)
            text += QLatin1Char(',') + c;
        text += QLatin1Char('\n');
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0 || !f.commit()) {
        *error = QStringLiteral("%1: cannot write the CSV (%2)").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace costscope
