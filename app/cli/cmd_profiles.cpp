// SPDX-License-Identifier: MIT
#include "analysis/device_transfer.h"
#include "analysis/profile_io.h"
#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"
#include "cli/analysis_setup.h"
#include "cli/args.h"
#include "cli/commands.h"

#include <iomanip>
#include <iostream>

namespace costscope::cli {

namespace {

constexpr const char* kUsageLine = "usage: costscope-cli profiles [show NAME|FILE]\n"
                                   "       costscope-cli profiles transfer MEASURED --to SHEET [--from SHEET] "
                                   "[--save NAME]";

// profiles transfer: a device you do not have, predicted from a calibration of one you do and the two datasheets
// (analysis/device_transfer.h). Prints the profile, or saves it among the user's profiles.
int transfer(const Args& args, const std::string& measuredName)
{
    std::string err;
    auto measured = resolveProfile(measuredName, &err);
    if (!measured) {
        std::cerr << "costscope-cli profiles transfer: " << err << '\n';
        return kBadInput;
    }
    auto to = resolveProfile(*args.option("to"), &err);
    if (!to) {
        std::cerr << "costscope-cli profiles transfer: --to: " << err << '\n';
        return kBadInput;
    }
    const ProfileLibrary lib = ProfileLibrary::load(ProfilePaths::defaults());
    std::optional<DeviceProfile> from;
    if (auto name = args.option("from")) {
        auto p = resolveProfile(*name, &err);
        if (!p) {
            std::cerr << "costscope-cli profiles transfer: --from: " << err << '\n';
            return kBadInput;
        }
        from = std::move(*p);
    } else {
        std::vector<const DeviceProfile*> sheets;
        for (const auto& e : lib.entries())
            if (e.origin == ProfileLibrary::Origin::Preset)
                sheets.push_back(&e.profile);
        if (const DeviceProfile* s = datasheetFor(*measured, sheets))
            from = *s;
        else {
            std::cerr << "costscope-cli profiles transfer: no single datasheet preset matches '" << measured->name
                      << "' (" << measured->description.substr(0, 60) << "); name it with --from\n";
            return kBadInput;
        }
    }
    auto t = transferProfile(*measured, *from, *to, args.option("save").value_or(""));
    if (!t) {
        std::cerr << "costscope-cli profiles transfer: " << t.error().message << '\n';
        return kBadInput;
    }
    if (!args.option("save")) {
        std::cout << profileToJsonText(*t);
        return kOk;
    }
    ProfileLibrary writable = lib;
    auto path = writable.saveUserProfile(*t);
    if (!path) {
        std::cerr << "costscope-cli profiles transfer: " << path.error().message << '\n';
        return kBadInput;
    }
    std::cout << "saved transferred profile '" << t->name << "' (" << t->transferredFrom << ") to " << *path << '\n';
    return kOk;
}

} // namespace

int cmdProfiles(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {}, {"to", "from", "save"}, &err);
    const auto& pos = args ? args->positional() : std::vector<std::string>{};
    const bool show = pos.size() == 2 && pos[0] == "show";
    const bool transferring = pos.size() == 2 && pos[0] == "transfer";
    if (!args || !(pos.empty() || show || transferring) || (transferring != bool(args->option("to")))) {
        std::cerr << kUsageLine << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    if (transferring)
        return transfer(*args, pos[1]);
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
                  << calibrationName(p.calibration) << std::setw(12)
                  << (p.transferredFrom.empty() ? origin : "transferred") << p.source << '\n';
    };
    for (const auto& e : lib.entries())
        line(e.profile, originName(e.origin));
    for (const char* set : {"rlx-linux", "rlx-apple"})
        for (const DeviceProfile& p : rlxProfileSet(set))
            line(p, "rlx-set");
    return kOk;
}

} // namespace costscope::cli
