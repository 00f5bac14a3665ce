// SPDX-License-Identifier: MIT
#include "local_device_candidates.h"

#include "analysis/device_transfer.h"
#include "analysis/rlx_profiles.h"
#include "analysis/run_predictions.h"
#include "calibration/device_profile_name.h"
#include "device_ref.h"

#include <algorithm>

namespace costscope {

std::string DeviceCandidate::label() const
{
    return info.pciBusId.empty() ? info.name : info.name + ", PCI " + info.pciBusId;
}

std::vector<DeviceInfo> devicesOf(const std::vector<const Backend*>& backends)
{
    std::vector<DeviceInfo> out;
    for (const Backend* b : backends)
        for (DeviceInfo& d : b->devices())
            out.push_back(std::move(d));
    return out;
}

namespace {
std::string idList(const std::vector<DeviceInfo>& devices)
{
    std::string out;
    for (const DeviceInfo& d : devices)
        out += (out.empty() ? "" : ", ") + localDeviceId(d);
    return out.empty() ? "none" : out;
}
} // namespace

Result<std::vector<DeviceInfo>> selectLocalDevices(const std::vector<DeviceInfo>& devices, std::string_view spec,
                                                   std::string_view what)
{
    std::vector<DeviceInfo> out;
    if (spec == "all") {
        std::copy_if(devices.begin(), devices.end(), std::back_inserter(out),
                     [](const DeviceInfo& d) { return d.backend != "cpu"; });
        if (out.empty())
            return Diagnostic::error(std::string(what)
                                     + " all: no GPU on this machine (devices here: " + idList(devices) + ")");
        return out;
    }
    std::string_view rest = spec;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        auto ref = parseDeviceRef(item, what);
        if (!ref)
            return ref.error();
        if (!ref->local())
            return Diagnostic::error(std::string(what) + ": '" + std::string(item) + "' is a device of remote host '"
                                     + ref->host + "'; this command considers local devices only (" + idList(devices)
                                     + ")");
        const auto found = std::find_if(devices.begin(), devices.end(), [&](const DeviceInfo& d) {
            return d.backend == ref->backend && d.index == ref->index;
        });
        if (found == devices.end())
            return Diagnostic::error(std::string(what) + ": no local device '" + std::string(item)
                                     + "' (devices here: " + idList(devices) + ")");
        const bool repeated = std::any_of(out.begin(), out.end(), [&](const DeviceInfo& d) {
            return d.backend == found->backend && d.index == found->index;
        });
        if (repeated)
            return Diagnostic::error(std::string(what) + ": '" + std::string(item) + "' is named twice");
        out.push_back(*found);
    }
    if (out.empty())
        return Diagnostic::error(std::string(what) + ": names no device (all, or ids such as cuda:0,cuda:1)");
    return out;
}

DeviceCandidate deviceCandidate(const DeviceInfo& device, int devicesOfBackend, const ProfileLibrary& library,
                                const std::string& paritySet)
{
    DeviceCandidate c;
    c.info = device;
    c.id = localDeviceId(device);
    c.kind = deviceOfBackend(device.backend);
    const DeviceProfile* own = library.find(deviceProfileName(device));
    if (!own && devicesOfBackend == 1)
        own = library.find("calibrated-" + device.backend);
    if (own) {
        c.profile = *own;
        c.profileOrigin = "calibrated";
        return c;
    }
    std::vector<const DeviceProfile*> sheets;
    for (const ProfileLibrary::Entry& e : library.entries())
        if (e.origin == ProfileLibrary::Origin::Preset)
            sheets.push_back(&e.profile);
    DeviceProfile named;
    named.name = device.name;
    named.device = c.kind;
    if (const DeviceProfile* sheet = datasheetFor(named, sheets)) {
        c.profile = *sheet;
        c.profileOrigin = "datasheet";
        return c;
    }
    const std::vector<DeviceProfile> parity = rlxProfileSet(paritySet);
    if (const DeviceProfile* p = findProfile(parity, c.kind))
        c.profile = *p;
    c.profileOrigin = "RLX parity";
    return c;
}

std::vector<DeviceCandidate> deviceCandidates(const std::vector<DeviceInfo>& devices,
                                              const std::vector<DeviceInfo>& all, const ProfileLibrary& library,
                                              const std::string& paritySet)
{
    std::vector<DeviceCandidate> out;
    for (const DeviceInfo& d : devices) {
        const auto sameBackend =
            std::count_if(all.begin(), all.end(), [&](const DeviceInfo& o) { return o.backend == d.backend; });
        out.push_back(deviceCandidate(d, static_cast<int>(sameBackend), library, paritySet));
    }
    return out;
}

} // namespace costscope
