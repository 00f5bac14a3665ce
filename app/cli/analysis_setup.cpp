// SPDX-License-Identifier: MIT
#include "cli/analysis_setup.h"

#include "analysis/profile_io.h"
#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"

#include <charconv>
#include <filesystem>
#include <iostream>

namespace costscope::cli {

namespace {

std::optional<DeviceProfile> fromSet(const std::string& set, Device d)
{
    for (DeviceProfile& p : rlxProfileSet(set))
        if (p.device == d)
            return std::move(p);
    return std::nullopt;
}

bool parseBinding(const std::string& text, Bindings& out)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        return false;
    std::int64_t v = 0;
    const char* begin = text.data() + eq + 1;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, v);
    if (ec != std::errc() || ptr != end || begin == end || v < 0)
        return false;
    out[text.substr(0, eq)] = v;
    return true;
}

} // namespace

std::optional<DeviceProfile> resolveProfile(const std::string& nameOrPath, std::string* error)
{
    const ProfileLibrary lib = ProfileLibrary::load(ProfilePaths::defaults());
    // A profile whose learned predictors could not be read is still used (the analytic terms price those
    // classes); say so once, where it is resolved.
    auto warned = [](DeviceProfile p) {
        for (const std::string& w : p.loadWarnings)
            std::cerr << "warning: " << w << '\n';
        return p;
    };
    if (const DeviceProfile* p = lib.find(nameOrPath))
        return warned(*p);
    if (const auto slash = nameOrPath.find('/'); slash != std::string::npos)
        for (DeviceProfile& p : rlxProfileSet(nameOrPath.substr(0, slash)))
            if (p.name == nameOrPath)
                return std::move(p);
    std::error_code ec;
    if (std::filesystem::is_regular_file(nameOrPath, ec)) {
        auto loaded = loadProfileFile(nameOrPath);
        if (loaded)
            return warned(std::move(*loaded));
        *error = loaded.error().message;
        return std::nullopt;
    }
    *error = "unknown profile '" + nameOrPath + "' (not a profile name or a file; see costscope-cli profiles)";
    return std::nullopt;
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
    for (const std::string& b : a.options("bind"))
        if (!parseBinding(b, s.bindings)) {
            std::cerr << "bad --bind '" << b << "': expected SYMBOL=N with N >= 0\n";
            return std::nullopt;
        }
    // --profiles is the spelling the RLX commands (gate, pick) use for the same choice.
    const std::string set = a.option("profile-set").value_or(a.option("profiles").value_or("rlx-linux"));
    if (rlxProfileSet(set).empty()) {
        std::cerr << "unknown profile set '" << set << "' (rlx-linux or rlx-apple)\n";
        return std::nullopt;
    }
    *exitCode = kBadInput;
    for (const std::string& name : a.options("profile")) {
        std::string err;
        auto p = resolveProfile(name, &err);
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
        auto d = parseDevice(name);
        auto p = d ? fromSet(set, *d) : std::nullopt;
        if (!p) {
            std::cerr << "unknown device '" << name << "' in profile set " << set << '\n';
            *exitCode = kUsage;
            return std::nullopt;
        }
        s.profiles.push_back(std::move(*p));
    }
    *exitCode = kOk;
    return s;
}

} // namespace costscope::cli
