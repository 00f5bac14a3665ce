// SPDX-License-Identifier: MIT
#include "analysis/profile_io.h"
#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"
#include "cli/analysis_setup.h"
#include "cli/args.h"
#include "cli/commands.h"

#include <iomanip>
#include <iostream>

namespace costscope::cli {

int cmdProfiles(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {}, {}, &err);
    const auto& pos = args ? args->positional() : std::vector<std::string>{};
    const bool show = pos.size() == 2 && pos[0] == "show";
    if (!args || !(pos.empty() || show)) {
        std::cerr << "usage: costscope-cli profiles [show NAME|FILE]" << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    if (show) {
        auto p = resolveProfile(pos[1], &err);
        if (!p) {
            std::cerr << err << '\n';
            return kBadInput;
        }
        std::cout << profileToJsonText(*p);
        return kOk;
    }
    const ProfileLibrary lib = ProfileLibrary::load(ProfilePaths::defaults());
    for (const Diagnostic& d : lib.problems())
        std::cerr << d.message << '\n';
    auto line = [](const DeviceProfile& p, std::string_view origin) {
        std::cout << std::left << std::setw(36) << p.name << std::setw(9) << deviceName(p.device) << std::setw(13)
                  << calibrationName(p.calibration) << std::setw(11) << origin << p.source << '\n';
    };
    for (const auto& e : lib.entries())
        line(e.profile, originName(e.origin));
    for (const char* set : {"rlx-linux", "rlx-apple"})
        for (const DeviceProfile& p : rlxProfileSet(set))
            line(p, "rlx-set");
    return kOk;
}

} // namespace costscope::cli
