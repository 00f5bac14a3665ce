// SPDX-License-Identifier: MIT
#include "canvas/overlay_model.h"
#include <algorithm>
#include <array>
#include <cmath>

namespace costscope {

void OverlayModel::setGraph(std::shared_ptr<const Graph> graph)
{
    if (graph != m_graph)
        m_measured.clear();
    m_graph = std::move(graph);
    rescale();
}

void OverlayModel::setMeasured(const std::shared_ptr<const Graph>& graph, std::vector<std::optional<double>> nsByNode)
{
    if (!graph || graph != m_graph)
        return;
    m_measured = std::move(nsByNode);
    m_measured.resize(m_graph->nodes.size());
    rescale();
}

bool OverlayModel::active() const
{
    if (m_mode == OverlayMode::Measured)
        return m_graph && hasMeasured();
    return m_mode != OverlayMode::None && m_cost && m_graph;
}

void OverlayModel::setCost(std::shared_ptr<const GraphCost> cost)
{
    m_cost = std::move(cost);
    rescale();
}

void OverlayModel::setMode(OverlayMode mode)
{
    m_mode = mode;
    rescale();
}

const NodeCost* OverlayModel::nodeCost(std::size_t nodeIndex) const
{
    if (!m_cost || nodeIndex >= m_cost->nodes.size())
        return nullptr;
    const NodeCost& c = m_cost->nodes[nodeIndex];
    return c.skipped ? nullptr : &c;
}

bool OverlayModel::isSyncPoint(std::size_t nodeIndex) const
{
    const NodeCost* c = nodeCost(nodeIndex);
    if (c && c->syncNs > 0)
        return true;
    return m_graph && nodeIndex < m_graph->nodes.size() && m_graph->nodes[nodeIndex].op.info().hostSync;
}

std::optional<OverlayModel::Term> OverlayModel::dominantTerm(std::size_t nodeIndex) const
{
    const NodeCost* c = nodeCost(nodeIndex);
    if (!c || c->totalNs <= 0)
        return std::nullopt;
    const std::array<double, 4> terms{c->computeNs, c->memoryNs, c->dispatchNs, c->syncNs};
    return static_cast<Term>(std::max_element(terms.begin(), terms.end()) - terms.begin());
}

std::optional<double> OverlayModel::value(std::size_t nodeIndex) const
{
    if (m_mode == OverlayMode::Measured)
        return nodeIndex < m_measured.size() ? m_measured[nodeIndex] : std::nullopt;
    const NodeCost* c = nodeCost(nodeIndex);
    if (!c)
        return std::nullopt;
    switch (m_mode) {
    case OverlayMode::Cost: return c->totalNs;
    case OverlayMode::IoBytes: return static_cast<double>(c->bytes);
    case OverlayMode::SyncPoints: return isSyncPoint(nodeIndex) ? 1.0 : 0.0;
    case OverlayMode::Dominant: return c->totalNs;
    case OverlayMode::Measured:
    case OverlayMode::None: break;
    }
    return std::nullopt;
}

void OverlayModel::rescale()
{
    m_min = 0;
    m_max = 0;
    const std::size_t count = m_mode == OverlayMode::Measured ? m_measured.size() : m_cost ? m_cost->nodes.size() : 0;
    bool first = true;
    for (std::size_t i = 0; i < count; ++i) {
        const auto v = value(i);
        if (!v || *v <= 0)
            continue;
        m_min = first ? *v : std::min(m_min, *v);
        m_max = first ? *v : std::max(m_max, *v);
        first = false;
    }
    if (m_scale == HeatScale::Absolute) {
        const bool bytes = m_mode == OverlayMode::IoBytes;
        m_scaleMin = bytes ? 1024.0 : 100.0;
        m_scaleMax = bytes ? 1024.0 * 1024 * 1024 : 1e8;
    } else if (m_max > 0 && m_max < m_min * kMinHeatSpan) {
        const double middle = std::sqrt(m_min * m_max);
        m_scaleMin = middle / std::sqrt(kMinHeatSpan);
        m_scaleMax = middle * std::sqrt(kMinHeatSpan);
    } else {
        m_scaleMin = m_min;
        m_scaleMax = m_max;
    }
}

void OverlayModel::setScale(HeatScale scale)
{
    m_scale = scale;
    rescale();
}

QColor OverlayModel::heat(double t)
{
    // A light-to-dark sequential ramp (ColorBrewer YlOrRd): cheap nodes stay pale so the text stays readable.
    static const std::array<QColor, 6> stops{QColor(0xff, 0xf7, 0xd0), QColor(0xfe, 0xd9, 0x76),
                                             QColor(0xfd, 0x8d, 0x3c), QColor(0xf0, 0x3b, 0x20),
                                             QColor(0xbd, 0x00, 0x26), QColor(0x67, 0x00, 0x1f)};
    t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(t), stops.size() - 2);
    const double f = t - static_cast<double>(i);
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor OverlayModel::colourForValue(double v) const
{
    if (v <= 0 || m_scaleMax <= 0 || m_scaleMax <= m_scaleMin)
        return heat(0);
    const double t = (std::log10(v) - std::log10(m_scaleMin)) / (std::log10(m_scaleMax) - std::log10(m_scaleMin));
    return heat(0.08 + 0.92 * std::clamp(t, 0.0, 1.0));
}

QColor OverlayModel::termColour(Term t)
{
    switch (t) {
    case Term::Compute: return QColor(0x4c, 0x9b, 0xe8);
    case Term::Memory: return QColor(0xf2, 0xb1, 0x34);
    case Term::Dispatch: return QColor(0x9b, 0x8a, 0xd6);
    case Term::Sync: return QColor(0xe8, 0x55, 0x3e);
    }
    return {};
}

QString OverlayModel::termName(Term t)
{
    switch (t) {
    case Term::Compute: return QStringLiteral("compute");
    case Term::Memory: return QStringLiteral("memory");
    case Term::Dispatch: return QStringLiteral("dispatch");
    case Term::Sync: return QStringLiteral("sync");
    }
    return {};
}

QColor OverlayModel::colour(std::size_t nodeIndex) const
{
    if (!active())
        return {};
    if (m_mode == OverlayMode::Dominant) {
        const auto term = dominantTerm(nodeIndex);
        return term ? termColour(*term) : QColor();
    }
    if (m_mode == OverlayMode::SyncPoints)
        return isSyncPoint(nodeIndex) ? termColour(Term::Sync) : QColor(0xee, 0xef, 0xf2);
    const auto v = value(nodeIndex);
    return v ? colourForValue(*v) : QColor();
}

QString OverlayModel::badge(std::size_t nodeIndex) const
{
    return m_cost && isSyncPoint(nodeIndex) ? QStringLiteral("SYNC") : QString();
}

QString OverlayModel::costText(std::size_t nodeIndex) const
{
    if (m_mode == OverlayMode::Measured)
        return nodeIndex < m_measured.size() && m_measured[nodeIndex] ? formatNs(*m_measured[nodeIndex]) : QString();
    const NodeCost* c = nodeCost(nodeIndex);
    return c && c->totalNs > 0 ? formatNs(c->totalNs) : QString();
}

GroupAggregate OverlayModel::aggregate(const std::vector<std::size_t>& nodeIndices) const
{
    const bool measured = m_mode == OverlayMode::Measured;
    GroupAggregate a;
    a.nodes = nodeIndices.size();
    a.hasCost = measured ? hasMeasured() : m_cost != nullptr;
    for (std::size_t i : nodeIndices) {
        const NodeCost* c = nodeCost(i);
        if (c)
            a.ioBytes += c->bytes;
        if (measured)
            a.costNs += value(i).value_or(0.0); // the group's measured time
        else if (c)
            a.costNs += c->totalNs;
        if (m_cost && isSyncPoint(i))
            ++a.syncPoints;
    }
    return a;
}

QString formatNs(double ns)
{
    if (ns >= 1e9)
        return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'f', 2);
    if (ns >= 1e6)
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', 2);
    if (ns >= 1e3)
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'f', 1);
    return QStringLiteral("%1 ns").arg(ns, 0, 'f', 0);
}

QString formatBytes(double bytes)
{
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    return u == 0 ? QStringLiteral("%1 B").arg(bytes, 0, 'f', 0) : QStringLiteral("%1 %2").arg(bytes, 0, 'f', 1).arg(QLatin1String(units[u]));
}

} // namespace costscope
