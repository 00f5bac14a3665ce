// SPDX-License-Identifier: MIT
#include "canvas/fusion_badges.h"
#include "analysis/missed_fusions.h"
#include "canvas/graph_scene.h"
#include <memory>

namespace costscope {

std::map<NodeId, std::string> fusionBadgeHints(const Graph& g)
{
    std::map<NodeId, std::string> hints;
    for (const MissedFusion& m : missedFusions(g)) {
        std::string& text = hints[m.node];
        if (!text.empty())
            text += '\n';
        text += std::string(missedFusionName(m.reason)) + ": " + m.hint;
    }
    return hints;
}

void installFusionBadges(GraphScene* scene)
{
    // Once the scene drew the graph: before that its boxes are still the last graph's. Each graph is read once.
    auto badged = std::make_shared<const Graph*>(nullptr);
    QObject::connect(scene, &GraphScene::layoutFinished, scene, [scene, badged] {
        if (scene->graph() == *badged)
            return;
        *badged = scene->graph();
        scene->setFusionHints(*badged ? fusionBadgeHints(**badged) : std::map<NodeId, std::string>{});
    });
}

} // namespace costscope
