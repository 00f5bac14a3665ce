// SPDX-License-Identifier: MIT
#include "cli/device_option.h"

#include "cli/args.h"
#include "device_ref.h"

#include <algorithm>
#include <optional>

namespace costscope::cli {

namespace {
// Where the value of option `name` sits in `words`: "--name VALUE" or "--name=VALUE"; nullopt when absent.
struct OptionAt {
    std::size_t word = 0;
    bool inline_ = false; // "--name=VALUE"
    std::string value;
};

std::optional<OptionAt> findOption(const std::vector<std::string>& words, const std::string& name)
{
    const std::string flag = "--" + name;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i] == flag && i + 1 < words.size())
            return OptionAt{i + 1, false, words[i + 1]};
        if (words[i].rfind(flag + "=", 0) == 0)
            return OptionAt{i, true, words[i].substr(flag.size() + 1)};
    }
    return std::nullopt;
}

void setOption(std::vector<std::string>& words, const std::string& name, const std::string& value)
{
    if (auto at = findOption(words, name))
        words[at->word] = at->inline_ ? "--" + name + "=" + value : value;
    else
        words.insert(words.end(), {"--" + name, value});
}
} // namespace

int resolveDeviceId(RemoteArgs& args, std::string* error)
{
    const auto device = findOption(args.rest, "device");
    if (!device || device->value == "all" || parseInt(device->value))
        return kOk;
    auto ref = parseDeviceRef(device->value, "--device");
    if (!ref) {
        *error = ref.error().message + "; or an index of --backend, or all";
        return kUsage;
    }
    const std::string configured = args.remote ? args.remote->target.host : std::string();
    const std::string& text = device->value;
    if (!ref->local() && ref->host != configured && (!args.remote || ref->host != args.remote->target.destination())) {
        *error = "--device " + text + ": '" + ref->host + "' is not a configured remote (remotes configured: "
                 + (configured.empty() ? "none; add --remote USER@" + ref->host : configured) + ")";
        return kBadInput;
    }
    if (ref->local() && args.remote) {
        *error = "--device " + text + " names a device of this machine, but --remote runs on " + configured
                 + " (name it " + configured + "/" + ref->backend + ":" + std::to_string(ref->index) + ")";
        return kBadInput;
    }
    if (const auto backend = findOption(args.rest, "backend"); backend && backend->value != ref->backend) {
        *error = "--device " + text + " is a " + ref->backend + " device, but --backend says " + backend->value;
        return kBadInput;
    }
    setOption(args.rest, "device", std::to_string(ref->index));
    setOption(args.rest, "backend", ref->backend);
    return kOk;
}

} // namespace costscope::cli
