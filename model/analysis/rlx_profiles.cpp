// SPDX-License-Identifier: MIT
#include "analysis/rlx_profiles.h"

#include "analysis/device_policy.h"
#include "analysis/profile_set.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>

namespace costscope {

namespace {

int hostWorkers()
{
    const auto env = envSetting(processEnvironment(), "WORKERS");
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return env ? rlxCpuWorkers(cores, std::string_view(*env)) : rlxCpuWorkers(cores, std::nullopt);
}

// The sets compiled in from resources/profiles/sets, parsed once. They are checked by the tests
// (test_profile_sets); a set that does not parse is a broken build, so it stops the program with the reason.
const ProfileSet* compiledSet(std::string_view name)
{
    static const std::map<std::string, ProfileSet, std::less<>> sets = [] {
        std::map<std::string, ProfileSet, std::less<>> out;
        for (std::string_view setName : rlxProfileSetNames()) {
            const std::string origin = "resources/profiles/sets/" + std::string(setName) + ".json";
            auto set = profileSetFromJsonText(std::string(compiledProfileSetText(setName)), origin);
            if (!set || !set->discreteGpuFallback) {
                std::fprintf(stderr, "costscope: compiled-in profile set %s is broken: %s\n", origin.c_str(),
                             set ? "no discrete_gpu_fallback" : set.error().message.c_str());
                std::abort();
            }
            out.emplace(std::string(setName), std::move(*set));
        }
        return out;
    }();
    auto it = sets.find(name);
    return it == sets.end() ? nullptr : &it->second;
}

} // namespace

DeviceProfile rlxDiscreteGpuFallback()
{
    return *compiledSet("rlx-linux")->discreteGpuFallback;
}

std::vector<std::string_view> rlxProfileSetNames()
{
    return {"rlx-linux", "rlx-apple"};
}

std::vector<DeviceProfile> rlxProfileSet(std::string_view set)
{
    const ProfileSet* s = compiledSet(set);
    if (!s)
        return {};
    std::vector<DeviceProfile> out = s->profiles;
    for (DeviceProfile& p : out)
        if (p.device == Device::Cpu)
            p.numThreads = hostWorkers() + 1; // RLX: threads = workers + 1
    return out;
}

const DeviceProfile* findProfile(const std::vector<DeviceProfile>& set, Device d)
{
    auto it = std::find_if(set.begin(), set.end(), [d](const DeviceProfile& p) { return p.device == d; });
    return it == set.end() ? nullptr : &*it;
}

int rlxCpuWorkers(int cores, std::optional<std::string_view> rlxWorkersEnv)
{
    if (rlxWorkersEnv) {
        int n = 0;
        auto [ptr, ec] = std::from_chars(rlxWorkersEnv->data(), rlxWorkersEnv->data() + rlxWorkersEnv->size(), n);
        if (ec == std::errc{} && ptr == rlxWorkersEnv->data() + rlxWorkersEnv->size() && n > 0)
            return n;
    }
    return std::clamp(cores / 2, 1, 15);
}

} // namespace costscope
