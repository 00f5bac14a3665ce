// SPDX-License-Identifier: MIT
#include "cli/device_id_profiles.h"

#include "device_ref.h"
#include "local_device_candidates.h"
#include "remote/remote_commands.h"

#include <set>

namespace costscope::cli {

namespace {
// The hosts whose calibration is kept here: the HOST of every HOST/calibrated-BACKEND profile.
std::string hostsWithProfiles(const ProfileLibrary& library)
{
    std::set<std::string> hosts;
    for (const ProfileLibrary::Entry& e : library.entries())
        if (const auto at = e.profile.name.find("/calibrated-");
            at != std::string::npos && at > 0 && e.origin == ProfileLibrary::Origin::User)
            hosts.insert(e.profile.name.substr(0, at));
    std::string out;
    for (const std::string& h : hosts)
        out += (out.empty() ? "" : ", ") + h;
    return out.empty() ? "none" : out;
}
} // namespace

bool namesDeviceIds(std::string_view spec)
{
    return spec == "all" || spec.find_first_of(":/") != std::string_view::npos;
}

Result<std::vector<IdProfile>> profilesForDeviceIds(std::string_view spec, const std::string& set,
                                                    const ProfileLibrary& library)
{
    std::vector<IdProfile> out;
    std::string localSpec;            // the local ids, in order, for selectLocalDevices
    std::vector<std::size_t> localAt; // where each local device goes in `out`
    std::string_view rest = spec;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string item(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (item == "all") {
            localSpec += (localSpec.empty() ? "" : ",") + item;
            localAt.push_back(out.size());
            continue;
        }
        auto ref = parseDeviceRef(item, "--device");
        if (!ref)
            return ref.error();
        if (ref->local()) {
            localSpec += (localSpec.empty() ? "" : ",") + item;
            localAt.push_back(out.size());
            continue;
        }
        const DeviceProfile* p = library.find(remoteProfileName(ref->host, ref->backend));
        if (!p)
            return Diagnostic::error(
                "--device " + item + ": '" + ref->host + "' is not a configured remote: no calibration of its "
                + ref->backend + " devices here (hosts calibrated here: " + hostsWithProfiles(library)
                + "; calibrate --remote USER@" + ref->host + " --backend " + ref->backend + " keeps one)");
        out.push_back({*p, item, "calibrated on " + ref->host});
    }
    if (localSpec.empty())
        return out;
    const std::vector<std::unique_ptr<Backend>> backends = availableBackends();
    std::vector<const Backend*> views;
    for (const auto& b : backends)
        views.push_back(b.get());
    const std::vector<DeviceInfo> here = devicesOf(views);
    // "all" stands for several devices: select each local part on its own, so that they keep their place.
    std::vector<IdProfile> merged;
    std::size_t next = 0, part = 0;
    std::string_view parts = localSpec;
    while (!parts.empty()) {
        const auto comma = parts.find(',');
        const std::string item(parts.substr(0, comma));
        parts = comma == std::string_view::npos ? std::string_view() : parts.substr(comma + 1);
        auto selected = selectLocalDevices(here, item, "--device");
        if (!selected)
            return selected.error();
        for (; next < localAt[part]; ++next)
            merged.push_back(std::move(out[next]));
        for (DeviceCandidate& c : deviceCandidates(*selected, here, library, set))
            merged.push_back({std::move(c.profile), c.id, c.label()});
        ++part;
    }
    for (; next < out.size(); ++next)
        merged.push_back(std::move(out[next]));
    return merged;
}

} // namespace costscope::cli
