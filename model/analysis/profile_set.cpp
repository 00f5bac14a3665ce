// SPDX-License-Identifier: MIT
#include "analysis/profile_set.h"

#include "analysis/profile_io.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace costscope {

namespace {

using Json = nlohmann::ordered_json;

std::string lowerName(Device d)
{
    std::string s(deviceName(d));
    for (char& c : s)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
}

Diagnostic error(const std::string& origin, const std::string& what)
{
    return Diagnostic::error(origin + ": " + what);
}

// The row's profile for `d`: the row's keys but "devices", plus name, device and (unless given) the set's source.
Result<DeviceProfile> rowProfile(const Json& row, Device d, bool fallback, const ProfileSet& set,
                                 const std::string& where)
{
    Json j;
    j["name"] = set.name + "/" + lowerName(d);
    j["device"] = std::string(deviceName(d));
    for (auto it = row.begin(); it != row.end(); ++it)
        if (it.key() != "devices")
            j[it.key()] = it.value();
    if (!j.contains("source"))
        j["source"] = set.source;
    if (fallback)
        j["rlx_fallback"] = true;
    return profileFromJsonText(j.dump(), where);
}

} // namespace

Result<ProfileSet> profileSetFromJsonText(const std::string& text, const std::string& origin)
{
    const Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded())
        return error(origin, "not valid JSON");
    if (!j.is_object())
        return error(origin, "expected a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "format" && it.key() != "version" && it.key() != "name" && it.key() != "description"
            && it.key() != "source" && it.key() != "rows" && it.key() != "discrete_gpu_fallback")
            return error(origin, "key '" + it.key() + "': unknown key");
    if (j.value("format", Json()) != "costscope-profile-set")
        return error(origin, "key 'format': expected \"costscope-profile-set\"");
    if (j.value("version", Json()) != 1)
        return error(origin, "key 'version': expected 1");
    ProfileSet set;
    for (auto [key, out] : {std::pair{"name", &set.name}, std::pair{"description", &set.description},
                            std::pair{"source", &set.source}}) {
        const Json v = j.value(key, Json(""));
        if (!v.is_string())
            return error(origin, std::string("key '") + key + "': expected a string");
        *out = v.get<std::string>();
    }
    if (set.name.empty())
        return error(origin, "key 'name': missing");
    const Json rows = j.value("rows", Json());
    if (!rows.is_array())
        return error(origin, "key 'rows': expected an array of rows");

    std::map<Device, DeviceProfile> byDevice;
    auto addRow = [&](const Json& row, bool fallback, const std::string& where) -> std::optional<Diagnostic> {
        if (!row.is_object())
            return error(origin, where + ": expected an object");
        for (const char* key : {"name", "device"})
            if (row.contains(key))
                return error(origin, where + ": key '" + key + "': the set names its profiles (use 'devices')");
        // The tag decides whether RLX 0.2.16's pick ranks a model: a parity set states it for every row.
        if (!row.contains("calibration"))
            return error(origin, where + ": key 'calibration': missing (Measured, ArchDefault or Uncalibrated)");
        const auto devices = row.find("devices");
        if (devices == row.end() || !devices->is_array() || devices->empty())
            return error(origin, where + ": key 'devices': expected a non-empty array of device names");
        for (const Json& name : *devices) {
            const auto d = name.is_string() ? parseDevice(name.get<std::string>()) : std::nullopt;
            if (!d)
                return error(origin, where + ": key 'devices': unknown device " + name.dump());
            if (byDevice.count(*d))
                return error(origin, where + ": device " + std::string(deviceName(*d)) + " is listed twice");
            auto p = rowProfile(row, *d, fallback, set, origin + ": " + where);
            if (!p)
                return p.error();
            byDevice.emplace(*d, std::move(*p));
        }
        if (fallback) {
            auto p = rowProfile(row, Device::Gpu, true, set, origin + ": " + where);
            if (!p)
                return p.error();
            p->name = set.name + "/discrete-gpu-fallback";
            set.discreteGpuFallback = std::move(*p);
        }
        return std::nullopt;
    };
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (auto e = addRow(rows[i], false, "rows[" + std::to_string(i) + "]"))
            return *e;
    if (j.contains("discrete_gpu_fallback"))
        if (auto e = addRow(j.at("discrete_gpu_fallback"), true, "discrete_gpu_fallback"))
            return *e;
    for (Device d : estimableDevices()) {
        auto it = byDevice.find(d);
        if (it == byDevice.end())
            return error(origin, "no row lists device " + std::string(deviceName(d)));
        set.profiles.push_back(std::move(it->second));
        byDevice.erase(it);
    }
    if (!byDevice.empty())
        return error(origin, "device " + std::string(deviceName(byDevice.begin()->first))
                                 + " cannot be estimated: only estimable devices belong in a set");
    return set;
}

} // namespace costscope
