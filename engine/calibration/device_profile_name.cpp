// SPDX-License-Identifier: MIT
#include "calibration/device_profile_name.h"

#include "analysis/profile_library.h"

#include <cctype>

namespace costscope {

namespace {
// Lower-case letters and digits, every other run of characters one '-'.
std::string slug(const std::string& text)
{
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c))
            out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}
} // namespace

std::string deviceProfileName(const DeviceInfo& device)
{
    const std::string where = device.pciBusId.empty() ? "dev" + std::to_string(device.index) : slug(device.pciBusId);
    return "calibrated-" + device.backend + "-" + slug(device.name) + "-" + where;
}

std::string calibratedProfileOf(const DeviceInfo& device)
{
    const std::string name = deviceProfileName(device);
    return ProfileLibrary::load(ProfilePaths::defaults()).find(name) ? name : std::string();
}

} // namespace costscope
