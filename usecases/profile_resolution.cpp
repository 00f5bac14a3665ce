// SPDX-License-Identifier: MIT
#include "usecases/profile_resolution.h"

#include "analysis/device.h"
#include "analysis/profile_io.h"
#include "analysis/rlx_profiles.h"

#include <filesystem>

namespace costscope {

Result<DeviceProfile> resolveProfile(const std::string& nameOrPath, const ProfileLibrary& library,
                                     const std::string& set)
{
    if (const auto device = parseDevice(nameOrPath)) {
        const std::vector<DeviceProfile> parity = rlxProfileSet(set);
        if (const DeviceProfile* p = findProfile(parity, *device))
            return *p;
        return Diagnostic::error("unknown device '" + nameOrPath + "' in profile set " + set);
    }
    if (const DeviceProfile* p = library.find(nameOrPath))
        return *p;
    if (const auto slash = nameOrPath.find('/'); slash != std::string::npos)
        for (DeviceProfile& p : rlxProfileSet(nameOrPath.substr(0, slash)))
            if (p.name == nameOrPath)
                return std::move(p);
    std::error_code ec;
    if (std::filesystem::is_regular_file(nameOrPath, ec))
        return loadProfileFile(nameOrPath);
    return Diagnostic::error("unknown profile '" + nameOrPath
                             + "' (not a device, a profile name or a file; see costscope-cli profiles)");
}

} // namespace costscope
