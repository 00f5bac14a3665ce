// SPDX-License-Identifier: MIT
#include "analysis/profile_fit.h"

namespace costscope {

ProfileFit fitProfileCorrections(const DeviceProfile& profile, const std::vector<MeasuredRun>& runs,
                                 const FitOptions& options)
{
    ProfileFit fit{profile, {}};
    fit.profile.corrections.clear();
    const auto model = makeCostModel("costscope");
    std::vector<FitRun> samples;
    for (const MeasuredRun& r : runs) {
        const GraphCost cost = model->estimate(*r.graph, hostAdjusted(fit.profile, r.host), r.bindings);
        samples.push_back(fitRunFrom(*r.graph, cost, r.nodes, r.wholeNs));
    }
    fit.report = fitCorrections(samples, options);
    fit.profile.corrections = fit.report.corrections;
    // Factors fitted to measured runs make the profile a measured one (the RLX 0.2.16 pick then ranks it).
    if (!fit.profile.corrections.empty())
        fit.profile.calibration = Calibration::Measured;
    return fit;
}

} // namespace costscope
