// SPDX-License-Identifier: MIT
#include "analysis/kernel_samples.h"

#include "analysis/calibration_fit.h"
#include "analysis/costscope_cost_model.h"

#include <map>

namespace costscope {

DeviceProfile analyticOnly(DeviceProfile p)
{
    p.kernelPredictors.reset();
    p.graphComposition = {};
    p.corrections.clear();
    return p;
}

std::vector<KernelSample> kernelSamplesFrom(const Graph& g, const DeviceProfile& analyticProfile,
                                            const std::vector<std::pair<NodeId, double>>& measured,
                                            double wholeMeasuredNs, const std::string& family, double launchNs)
{
    const CostscopeCostModel model;
    const DeviceProfile p = analyticOnly(analyticProfile);
    const GraphWork work = model.work(g, {});
    const GraphCost cost = model.price(g, work, p);
    const std::map<NodeId, double> byNode = nodeTimesWithoutOverhead(measured, wholeMeasuredNs, launchNs);
    std::vector<KernelSample> samples;
    double total = 0;
    for (std::size_t i = 0; i < g.nodes.size() && i < cost.nodes.size(); ++i) {
        const Node& node = g.nodes[i];
        const NodeCost& nc = cost.nodes[i];
        const std::string cls = kernelClassOf(node, work.nodes[i]);
        auto m = byNode.find(node.id);
        if (cls.empty() || m == byNode.end() || nc.totalNs <= 0 || nc.skipped)
            continue;
        // The analytic time the predictor multiplies: the kernel's terms, without sync and readback (the model
        // adds those outside the learned part).
        const double analytic = nc.kernelNs();
        if (analytic <= 0)
            continue;
        KernelSample s;
        s.kernelClass = cls;
        s.analyticNs = analytic;
        s.measuredNs = m->second;
        s.features = kernelFeatures(node, work.nodes[i], analytic, work.outputElements[i], work.inputReuseBytes[i]);
        s.family = family;
        total += s.analyticNs;
        samples.push_back(std::move(s));
    }
    // The time share is the analytic model's, not the measurement's: a kernel measured anomalously slow would
    // otherwise give itself most of its run's weight (a sampled 8x512x128 GEMM at 53 us, eight times its neighbours,
    // took a quarter of its run's weight on two H200 calls and taught every batch-8 GEMM near it to be 3x slower).
    for (KernelSample& s : samples)
        s.weight = 0.5 / double(samples.size()) + (total > 0 ? 0.5 * s.analyticNs / total : 0.0);
    return samples;
}

} // namespace costscope
