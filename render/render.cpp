// SPDX-License-Identifier: MIT
#include "render/render.h"

#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace costscope::render {

namespace {

// Fonts need a QGuiApplication; the CLI has none, so one is made on the offscreen platform.
bool ensureGui(std::string* error)
{
    if (qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return true;
    if (QCoreApplication::instance()) {
        *error = "rendering needs a QGuiApplication, not a plain QCoreApplication";
        return false;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "costscope-render";
    static char* argv[] = {name, nullptr};
    static QGuiApplication app(argc, argv);
    return true;
}

QImage rasterise(QSvgRenderer& r, double scale, int maxSide)
{
    QSizeF size = QSizeF(r.defaultSize()) * scale;
    const double largest = std::max(size.width(), size.height());
    if (largest > maxSide)
        size *= maxSide / largest;
    QImage img(size.toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    r.render(&p);
    return img;
}

} // namespace

bool svgToPng(const std::string& svg, const std::string& path, std::string* error)
{
    if (!ensureGui(error))
        return false;
    QSvgRenderer r(QByteArray::fromStdString(svg));
    if (!r.isValid()) {
        *error = "the SVG could not be parsed";
        return false;
    }
    if (!rasterise(r, 1.0, 8000).save(QString::fromStdString(path), "PNG")) {
        *error = "cannot write the PNG";
        return false;
    }
    return true;
}

bool htmlToPdf(const std::string& html, const std::string& path, std::string* error)
{
    if (!ensureGui(error))
        return false;
    QTextDocument doc;
    QString out;
    const QString in = QString::fromStdString(html);
    qsizetype at = 0;
    for (int n = 0;; ++n) {
        const qsizetype begin = in.indexOf(QLatin1String("<svg"), at);
        const qsizetype end = begin < 0 ? -1 : in.indexOf(QLatin1String("</svg>"), begin);
        if (end < 0)
            break;
        out += in.mid(at, begin - at);
        at = end + 6;
        QSvgRenderer r(in.mid(begin, at - begin).toUtf8());
        if (!r.isValid())
            continue;
        // Fit one page (about 650 x 900 layout px) so no image is cut at a page break.
        const QSizeF s = r.defaultSize();
        double w = std::min(s.width(), 650.0), h = s.height() * w / std::max(1.0, s.width());
        if (h > 900) {
            w *= 900 / h;
            h = 900;
        }
        const QString url = QStringLiteral("svg%1").arg(n);
        doc.addResource(QTextDocument::ImageResource, QUrl(url), rasterise(r, 2.0, 6000));
        out += QStringLiteral("<img src=\"%1\" width=\"%2\" height=\"%3\">").arg(url).arg(std::lround(w)).arg(std::lround(h));
    }
    out += in.mid(at);
    doc.setHtml(out);
    QPdfWriter writer(QString::fromStdString(path));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
    writer.setTitle(doc.metaInformation(QTextDocument::DocumentTitle));
    doc.print(&writer);
    if (!QFile::exists(QString::fromStdString(path))) {
        *error = "cannot write the PDF";
        return false;
    }
    return true;
}

} // namespace costscope::render
