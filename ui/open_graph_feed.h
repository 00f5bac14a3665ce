// SPDX-License-Identifier: MIT
#pragma once
// What the panels and charts of the open graph follow, so that they take this narrow collaborator instead of the
// main window: the graph with its cost and measured overlays, the analysis settings, the changes to them, and the
// few requests a view makes back (select a node, show a run's measured times, profiles were saved).
#include "analysis_settings_owner.h"
#include "canvas/overlay_model.h"

#include <QObject>

#include <memory>
#include <optional>
#include <vector>

namespace costscope {

class OpenGraphFeed : public QObject {
    Q_OBJECT
public:
    // `overlay` (which holds the open graph, its costs and measured times) outlives the feed; the window owns both.
    OpenGraphFeed(const OverlayModel& overlay, AnalysisSettingsOwner* settings, QObject* parent = nullptr)
        : QObject(parent), m_overlay(overlay), m_settings(settings)
    {
    }

    std::shared_ptr<const Graph> graph() const { return m_overlay.graph(); }
    const OverlayModel& overlay() const { return m_overlay; }
    AnalysisSettingsOwner* settings() const { return m_settings; }

signals:
    // Said by the owner of the overlay after it changed.
    // A new graph is shown: opened, created or edited (before the costs are requested again).
    void graphChanged();
    void costsUpdated();
    // The Measured overlay's times changed (a run, an imported trace).
    void measuredChanged();

    // Asked by a view; the window carries them out.
    void selectNodeRequested(costscope::NodeId id);
    // A run's measured ns per node index of `graph`, for the Measured overlay.
    void showMeasuredRequested(std::shared_ptr<const Graph> graph, std::vector<std::optional<double>> nsByNode);
    // A device profile was saved: the device lists read the profiles again.
    void profilesChanged();

private:
    const OverlayModel& m_overlay;
    AnalysisSettingsOwner* m_settings;
};

} // namespace costscope
