// SPDX-License-Identifier: MIT
#include "calibration/save_calibration.h"

#include "analysis/profile_library.h"

#include <ctime>
#include <unistd.h>

namespace costscope {

namespace {
std::string hostName()
{
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 && buf[0] ? std::string(buf) : std::string("unknown host");
}

std::string utcDate()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32] = {};
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%MZ", &tm);
    return buf;
}
} // namespace

Result<SavedProfile> saveCpuCalibration(const CpuCalibration& c, const std::string& name, const std::string& tool)
{
    SavedProfile saved{profileFromCpuCalibration(c, name, hostName(), utcDate(), tool), {}};
    auto lib = ProfileLibrary::load(ProfilePaths::defaults());
    auto path = lib.saveUserProfile(saved.profile);
    if (!path)
        return path.error();
    saved.path = std::move(*path);
    return saved;
}

} // namespace costscope
