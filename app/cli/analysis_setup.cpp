// SPDX-License-Identifier: MIT
#include "cli/analysis_setup.h"

#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"
#include "cli/device_id_profiles.h"
#include "usecases/bindings_parse.h"
#include "usecases/profile_resolution.h"

#include <iostream>

namespace costscope::cli {

std::optional<DeviceProfile> resolveProfile(const std::string& nameOrPath, std::string* error, const std::string& set)
{
    auto p = costscope::resolveProfile(nameOrPath, ProfileLibrary::load(ProfilePaths::defaults()), set);
    if (!p) {
        *error = p.error().message;
        return std::nullopt;
    }
    for (const std::string& w : p->loadWarnings)
        std::cerr << "warning: " << w << '\n';
    return std::move(*p);
}

std::optional<RlxVersion> rlxVersionOption(const Args& a, std::string* error)
{
    const auto text = a.option("rlx-version");
    if (!text)
        return kDefaultRlxVersion;
    auto v = parseRlxVersion(*text, "--rlx-version");
    if (!v) {
        *error = v.error().message;
        return std::nullopt;
    }
    return *v;
}

std::optional<AnalysisSetup> analysisSetup(const Args& a, int* exitCode)
{
    AnalysisSetup s;
    *exitCode = kUsage;
    const std::string modelName = a.option("model").value_or("rlx");
    s.model = makeCostModel(modelName);
    if (!s.model) {
        std::cerr << "unknown cost model '" << modelName << "' (rlx or costscope)\n";
        return std::nullopt;
    }
    std::string versionError;
    const auto version = rlxVersionOption(a, &versionError);
    if (!version) {
        std::cerr << versionError << '\n';
        return std::nullopt;
    }
    s.rlxVersion = *version;
    auto bindings = parseBindings(a.options("bind"));
    if (!bindings) {
        std::cerr << bindings.error().message << '\n';
        return std::nullopt;
    }
    s.bindings = std::move(*bindings);
    // --profiles is the spelling the RLX commands (gate, pick) use for the same choice.
    const std::string set = a.option("profile-set").value_or(a.option("profiles").value_or("rlx-linux"));
    if (rlxProfileSet(set).empty()) {
        std::cerr << "unknown profile set '" << set << "' (rlx-linux or rlx-apple)\n";
        return std::nullopt;
    }
    *exitCode = kBadInput;
    for (const std::string& name : a.options("profile")) {
        std::string err;
        auto p = resolveProfile(name, &err, set);
        if (!p) {
            std::cerr << err << '\n';
            return std::nullopt;
        }
        s.profiles.push_back(std::move(*p));
    }
    std::vector<std::string> devices = a.options("device");
    if (devices.empty() && s.profiles.empty())
        devices = {"Cpu", "Cuda", "Gpu"};
    for (const std::string& name : devices) {
        if (namesDeviceIds(name)) {
            auto ids = profilesForDeviceIds(name, set, ProfileLibrary::load(ProfilePaths::defaults()));
            if (!ids) {
                std::cerr << ids.error().message << '\n';
                return std::nullopt;
            }
            for (IdProfile& p : *ids) {
                s.profiles.push_back(std::move(p.profile));
                s.deviceIds.resize(s.profiles.size());
                s.deviceLabels.resize(s.profiles.size());
                s.deviceIds.back() = p.id;
                s.deviceLabels.back() = p.label;
            }
            continue;
        }
        const auto d = parseDevice(name);
        const std::vector<DeviceProfile> parity = rlxProfileSet(set);
        const DeviceProfile* p = d ? findProfile(parity, *d) : nullptr;
        if (!p) {
            std::cerr << "unknown device '" << name << "' in profile set " << set << '\n';
            *exitCode = kUsage;
            return std::nullopt;
        }
        s.profiles.push_back(*p);
    }
    s.deviceIds.resize(s.profiles.size());
    s.deviceLabels.resize(s.profiles.size());
    *exitCode = kOk;
    return s;
}

} // namespace costscope::cli
