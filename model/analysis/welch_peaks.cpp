// SPDX-License-Identifier: MIT
#include "analysis/welch_peaks.h"

#include "analysis/fusion_gate.h"
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

namespace costscope {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

bool isWgpuClass(Device d)
{
    return d == Device::Gpu || d == Device::Vulkan || d == Device::WebGpu || d == Device::DirectX
        || d == Device::OpenGl;
}

bool isApple(Device d)
{
    return d == Device::Metal || d == Device::Mlx || d == Device::Ane;
}

bool isCudaRocm(Device d)
{
    return d == Device::Cuda || d == Device::Rocm;
}

DeviceProfile profileOf(const std::vector<DeviceProfile>& set, Device d)
{
    if (const DeviceProfile* p = findProfile(set, d))
        return *p;
    DeviceProfile fallback = rlxDiscreteGpuFallback();
    fallback.device = d;
    return fallback;
}

double deviceComputeFactor(Device d)
{
    if (isApple(d))
        return 7.5;
    if (isCudaRocm(d))
        return 0.43;
    return isWgpuClass(d) ? 2.2 : 1.0;
}
} // namespace

double welchGpuAdjustment(Device d, std::int64_t batch)
{
    double mid = 0, large = 0;
    if (isApple(d)) {
        mid = 0.22;
        large = 1.15;
    } else if (isCudaRocm(d)) {
        mid = 0.15;
        large = 0.85;
    } else if (isWgpuClass(d)) {
        mid = 0.12;
    }
    const auto b = static_cast<double>(batch);
    double factor = 1;
    if (batch >= 512)
        factor *= 1 + std::log(b / 512) * mid;
    if (batch > 2048)
        factor *= 1 + std::log2(b / 2048) * large;
    return factor;
}

double welchHostEstimate(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch, const WelchParams& p)
{
    return rlxIoCost(welchHostProfile(batch, p), profileOf(set, Device::Cpu)) * welchGpuAdjustment(d, batch);
}

double welchFusedEstimate(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch, std::int64_t nFft,
                          std::int64_t k, double computeScale)
{
    const double ioOnly = rlxEstimate(welchFusedGraph(batch, WelchParams::fast(nFft, k)), profileOf(set, d));
    const double scale = deviceComputeFactor(d) * std::clamp(computeScale, 0.25, 1.0);
    const double floor = isGpuClass(d) && batch < 512 ? 400'000 : 0;
    return scale >= 1 ? std::max(ioOnly * scale, ioOnly + floor) : std::max(ioOnly * scale, floor);
}

WelchGate welchGate(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch, std::int64_t nFft,
                    std::int64_t k)
{
    const WelchParams fast = WelchParams::fast(nFft, k);
    const IoProfile before = ioProfile(welchFftOnlyGraph(batch, fast));
    IoProfile after = ioProfile(welchFusedGraph(batch, fast));
    // RLX's fused kernel on these backends keeps the peaks on the device at large batches: no extra sync.
    if (batch >= 2048 && (isWgpuClass(d) || isCudaRocm(d)) && after.syncPoints > 0)
        --after.syncPoints;
    const FusionBenefit benefit = FusionBenefit::between(before, after);
    const IoFusionGate gate = ioFusionGate(fusionTargetFor(d).value_or(FusionTarget::Wgpu));

    WelchGate w;
    w.device = d;
    w.batch = batch;
    w.nFft = nFft;
    w.k = k;
    w.scoreNs = gate.score(benefit);
    w.minGainNs = gate.minGainNs;
    w.readbackSavedBytes = benefit.hostReadbackBytesSaved;
    w.syncPointsSaved = benefit.syncPointsSaved;
    w.shouldFuseIo = w.scoreNs >= w.minGainNs;
    const bool fusedViable = isGpuClass(d) && d != Device::Tpu;
    if (fusedViable && batch >= 2048) {
        const double block = rlxEstimate(welchFftOnlyGraph(batch, fast), profileOf(set, d)) * 0.72
            + static_cast<double>(batch) * static_cast<double>(k) * 80;
        const double slack = isCudaRocm(d) && batch >= 8192 ? 1.15 : 1.10;
        w.computeFloorOk = welchFusedEstimate(set, d, batch, nFft, k, 1) <= block * slack;
    }
    w.shouldFuse = w.shouldFuseIo && w.computeFloorOk;
    return w;
}

std::string_view welchStrategyName(WelchStrategy s)
{
    switch (s) {
    case WelchStrategy::Ultra: return "ultra";
    case WelchStrategy::Fast: return "fast";
    case WelchStrategy::Rlx: return "rlx";
    case WelchStrategy::Learned: return "learned";
    }
    return "ultra";
}

Result<LearnedGates> parseLearnedGates(std::string_view text)
{
    if (text.empty() || text == "off")
        return LearnedGates{};
    const auto slash = text.find('/');
    const auto number = [](std::string_view s) -> std::optional<int> {
        int v = 0;
        const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        return ec == std::errc() && ptr == s.data() + s.size() && !s.empty() ? std::optional<int>(v) : std::nullopt;
    };
    std::optional<int> active, total;
    if (slash != std::string_view::npos) {
        active = number(text.substr(0, slash));
        total = number(text.substr(slash + 1));
    }
    if (!active || !total || *active < 0 || *total < 1 || *active > *total) {
        // Built with append: GCC 12 at -O3 reports a false -Wrestrict on "lit" + std::string&&.
        std::string msg = "learned gates: expected ACTIVE/TOTAL with 0 <= ACTIVE <= TOTAL, TOTAL >= 1, or off; found '";
        msg.append(text).append("'");
        return Diagnostic::error(std::move(msg));
    }
    return LearnedGates{true, *active, *total};
}

std::string learnedGatesText(const LearnedGates& g)
{
    return g.available ? std::to_string(g.active) + "/" + std::to_string(g.total) : std::string("off");
}

WelchStrategyCosts welchStrategyCosts(const std::vector<DeviceProfile>& set, Device d, std::int64_t batch,
                                      std::int64_t nFft, std::int64_t k, LearnedGates learned)
{
    const bool gpu = isGpuClass(d);
    const bool fuse = gpu && welchGate(set, d, batch, nFft, k).shouldFuse;
    WelchStrategyCosts c;
    c.ultraNs = gpu && batch > 128 ? kInf : welchHostEstimate(set, d, batch, WelchParams::ultraFast(nFft, k));
    c.fastNs = welchHostEstimate(set, d, batch, WelchParams::fast(nFft, k));
    c.rlxNs = fuse ? welchFusedEstimate(set, d, batch, nFft, k, 1) : kInf;
    const bool learnedOpen = learned.available && learned.active * 4 < learned.total && fuse;
    c.learnedNs = learnedOpen ? welchFusedEstimate(set, d, batch, nFft, k,
                                                   0.30 + 0.70 * learned.active / learned.total)
                              : kInf;
    const std::pair<double, WelchStrategy> order[] = {{c.fastNs, WelchStrategy::Fast},
                                                      {c.rlxNs, WelchStrategy::Rlx},
                                                      {c.learnedNs, WelchStrategy::Learned}};
    double best = c.ultraNs;
    for (const auto& [ns, s] : order)
        if (ns < best) {
            best = ns;
            c.pick = s;
        }
    return c;
}

} // namespace costscope
