// SPDX-License-Identifier: MIT
#include "calibration/save_calibration.h"

#include "analysis/profile_library.h"

#include <ctime>
#include <unistd.h>

namespace costscope {

std::string calibrationHost()
{
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 && buf[0] ? std::string(buf) : std::string("unknown host");
}

std::string calibrationDate()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32] = {};
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%MZ", &tm);
    return buf;
}

Result<SavedProfile> saveCalibratedProfile(DeviceProfile profile)
{
    SavedProfile saved{std::move(profile), {}};
    auto lib = ProfileLibrary::load(ProfilePaths::defaults());
    auto path = lib.saveUserProfile(saved.profile);
    if (!path)
        return path.error();
    saved.path = std::move(*path);
    return saved;
}

} // namespace costscope
