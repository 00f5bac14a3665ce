// SPDX-License-Identifier: MIT
#include "jobs/cost_job.h"

#include "analysis/device.h"
#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"

namespace costscope {

namespace {
// Profiles are read once per process: presets and user profiles do not change while a cost job runs.
const ProfileLibrary& library()
{
    static const ProfileLibrary lib = ProfileLibrary::load(ProfilePaths::defaults());
    return lib;
}
} // namespace

std::optional<DeviceProfile> profileForDeviceName(const std::string& name)
{
    // A device name ("Cuda") means RLX's parity profile set, the default until the user picks hardware;
    // any other name is a profile from the library ("nvidia-h200", a user profile, an RLX cache).
    if (auto device = parseDevice(name)) {
        static const std::vector<DeviceProfile> parity = rlxProfileSet("rlx-linux");
        if (const DeviceProfile* p = findProfile(parity, *device))
            return *p;
    }
    if (const DeviceProfile* p = library().find(name))
        return *p;
    return std::nullopt;
}

CostProvider makeCostProvider()
{
    return [](const Graph& g, const CostRequest& r) -> std::shared_ptr<const GraphCost> {
        const auto model = makeCostModel(r.model);
        const auto profile = profileForDeviceName(r.device);
        if (!model || !profile)
            return nullptr;
        return std::make_shared<const GraphCost>(model->estimate(g, *profile, r.bindings));
    };
}

QStringList costModelNames()
{
    return {QStringLiteral("rlx"), QStringLiteral("costscope")};
}

QStringList costDeviceNames()
{
    QStringList names = {QStringLiteral("Cpu"),  QStringLiteral("Cuda"),   QStringLiteral("Rocm"),
                         QStringLiteral("Metal"), QStringLiteral("Mlx"),   QStringLiteral("Vulkan"),
                         QStringLiteral("Gpu"),   QStringLiteral("WebGpu"), QStringLiteral("Tpu")};
    for (const auto& e : library().entries())
        names << QString::fromStdString(e.profile.name);
    return names;
}

} // namespace costscope
