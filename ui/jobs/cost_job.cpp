// SPDX-License-Identifier: MIT
#include "jobs/cost_job.h"

#include "analysis/profile_library.h"
#include "usecases/profile_resolution.h"

#include <mutex>

namespace costscope {

namespace {
// Profiles are read once, and again when the GUI saved one (reloadProfileLibrary); a cost job keeps the snapshot
// it started with.
std::mutex g_libraryMutex;
std::shared_ptr<const ProfileLibrary> g_library;

std::shared_ptr<const ProfileLibrary> library()
{
    const std::lock_guard lock(g_libraryMutex);
    if (!g_library)
        g_library = std::make_shared<const ProfileLibrary>(ProfileLibrary::load(ProfilePaths::defaults()));
    return g_library;
}
} // namespace

void reloadProfileLibrary()
{
    auto fresh = std::make_shared<const ProfileLibrary>(ProfileLibrary::load(ProfilePaths::defaults()));
    const std::lock_guard lock(g_libraryMutex);
    g_library = std::move(fresh);
}

std::optional<DeviceProfile> profileForDeviceName(const std::string& name)
{
    auto profile = resolveProfile(name, *library());
    return profile ? std::optional<DeviceProfile>(std::move(*profile)) : std::nullopt;
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
    const auto lib = library();
    for (const auto& e : lib->entries())
        names << QString::fromStdString(e.profile.name);
    return names;
}

} // namespace costscope
