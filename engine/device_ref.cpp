// SPDX-License-Identifier: MIT
#include "device_ref.h"

#include <charconv>

namespace costscope {

Result<DeviceRef> parseDeviceRef(std::string_view text, std::string_view what)
{
    const auto bad = [&](const std::string& why) {
        return Diagnostic::error(std::string(what) + " '" + std::string(text) + "' " + why
                                 + " (expected BACKEND:N such as cuda:0, local/cuda:0 or HOST/cuda:0)");
    };
    DeviceRef ref;
    std::string_view rest = text;
    if (const auto slash = rest.rfind('/'); slash != std::string_view::npos) {
        ref.host = std::string(rest.substr(0, slash));
        rest = rest.substr(slash + 1);
        if (ref.host.empty())
            return bad("names no host before '/'");
        if (ref.host == "local")
            ref.host.clear();
    }
    const auto colon = rest.find(':');
    if (rest == "cpu") // the one CPU device: the remote listing names it "HOST/cpu"
        return DeviceRef{ref.host, "cpu", 0};
    if (colon == std::string_view::npos)
        return bad("has no device index");
    ref.backend = std::string(rest.substr(0, colon));
    if (!isKnownBackend(ref.backend))
        return bad("names no backend Costscope has (cpu, cuda, vulkan)");
    const std::string_view index = rest.substr(colon + 1);
    const auto [end, ec] = std::from_chars(index.data(), index.data() + index.size(), ref.index);
    if (index.empty() || ec != std::errc() || end != index.data() + index.size() || ref.index < 0)
        return bad("has no device index N >= 0 after ':'");
    return ref;
}

std::string localDeviceId(const DeviceInfo& d)
{
    return d.backend + ":" + std::to_string(d.index);
}

} // namespace costscope
