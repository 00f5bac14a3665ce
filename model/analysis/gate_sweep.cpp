// SPDX-License-Identifier: MIT
#include "analysis/gate_sweep.h"

#include "analysis/fuse_what_if.h"

namespace costscope {

const std::vector<Device>& welchGateDevices()
{
    static const std::vector<Device> devices = {Device::Metal, Device::Mlx, Device::Cuda, Device::Rocm,
                                                Device::Gpu,   Device::Tpu, Device::Cpu};
    return devices;
}

std::vector<GateCurve> welchGateSweep(const std::vector<DeviceProfile>& set, const std::vector<std::int64_t>& batches,
                                      std::int64_t nFft, std::int64_t k)
{
    std::vector<GateCurve> curves;
    for (Device d : welchGateDevices()) {
        GateCurve c;
        c.target = *fusionTargetFor(d);
        c.label = std::string(fusionTargetName(c.target));
        for (std::int64_t b : batches) {
            const WelchGate g = welchGate(set, d, b, nFft, k);
            c.scoreNs.push_back(g.scoreNs);
            c.fuse.push_back(g.shouldFuse);
            c.minGainNs = g.minGainNs;
        }
        curves.push_back(std::move(c));
    }
    return curves;
}

WelchStrategySweep welchStrategySweep(const std::vector<DeviceProfile>& set, Device d,
                                      const std::vector<std::int64_t>& batches, std::int64_t nFft, std::int64_t k,
                                      LearnedGates learned)
{
    WelchStrategySweep out;
    out.device = d;
    out.ns.assign(4, {});
    for (std::int64_t b : batches) {
        const WelchStrategyCosts s = welchStrategyCosts(set, d, b, nFft, k, learned);
        out.ns[0].push_back(s.ultraNs);
        out.ns[1].push_back(s.fastNs);
        out.ns[2].push_back(s.rlxNs);
        out.ns[3].push_back(s.learnedNs);
        out.pick.push_back(s.pick);
    }
    return out;
}

Result<std::vector<GateCurve>> fuseGateSweep(const Graph& g, const std::vector<NodeId>& nodes,
                                             const std::string& symbol, const std::vector<std::int64_t>& values,
                                             const Bindings& base)
{
    std::vector<GateCurve> curves;
    for (const FusionTarget t : fusionTargets())
        curves.push_back({t, std::string(fusionTargetName(t)), {}, {}, ioFusionGate(t).minGainNs});
    for (std::int64_t v : values) {
        Bindings b = base;
        b[symbol] = v;
        auto w = fuseWhatIf(g, nodes, b);
        if (!w)
            return w.error();
        for (const FuseVerdict& verdict : w->verdicts)
            for (GateCurve& c : curves)
                if (c.target == verdict.target) {
                    c.scoreNs.push_back(verdict.scoreNs);
                    c.fuse.push_back(verdict.shouldFuse);
                    c.minGainNs = verdict.minGainNs;
                }
    }
    return curves;
}

} // namespace costscope
