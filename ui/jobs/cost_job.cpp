// SPDX-License-Identifier: MIT
#include "jobs/cost_job.h"

#include "analysis/profile_library.h"
#include "usecases/profile_resolution.h"

#include <QObject>

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

namespace {
QStringList rlxDeviceKinds()
{
    return {QStringLiteral("Cpu"),   QStringLiteral("Cuda"),   QStringLiteral("Rocm"),
            QStringLiteral("Metal"), QStringLiteral("Mlx"),    QStringLiteral("Vulkan"),
            QStringLiteral("Gpu"),   QStringLiteral("WebGpu"), QStringLiteral("Tpu")};
}
} // namespace

QStringList costDeviceNames()
{
    QStringList names = rlxDeviceKinds();
    const auto lib = library();
    for (const auto& e : lib->entries())
        names << QString::fromStdString(e.profile.name);
    return names;
}

std::vector<DeviceGroup> costDeviceGroups()
{
    DeviceGroup local{QObject::tr("Local devices (calibrated here)"), {}};
    DeviceGroup remote{QObject::tr("Calibrated on other hosts"), {}};
    DeviceGroup presets{QObject::tr("Datasheet presets"), {}};
    const auto lib = library();
    for (const auto& e : lib->entries()) {
        const QString name = QString::fromStdString(e.profile.name);
        switch (e.origin) {
        case ProfileLibrary::Origin::Preset:
            presets.names << name;
            break;
        case ProfileLibrary::Origin::RlxCache:
            local.names << name;
            break;                         // RLX calibrated this machine
        case ProfileLibrary::Origin::User: // a remote calibration names its host: "<host>/<profile>"
            (name.contains(QLatin1Char('/')) ? remote : local).names << name;
            break;
        }
    }
    std::vector<DeviceGroup> groups;
    for (DeviceGroup* g : {&local, &remote, &presets})
        if (!g->names.isEmpty())
            groups.push_back(std::move(*g));
    groups.push_back({QObject::tr("RLX device kinds"), rlxDeviceKinds()});
    return groups;
}

} // namespace costscope
