// SPDX-License-Identifier: MIT
#include "cli/analysis_options.h"

#include "analysis/rlx_profiles.h"
#include "usecases/bindings_parse.h"

namespace costscope::cli {

std::optional<std::int64_t> positiveInt(const Args& a, const std::string& name, std::int64_t dflt, std::string* error)
{
    auto text = a.option(name);
    if (!text)
        return dflt;
    auto v = parseInt(*text);
    if (!v || *v < 1) {
        *error = "--" + name + " must be a positive integer, found '" + *text + "'";
        return std::nullopt;
    }
    return v;
}

std::optional<Device> deviceOption(const std::string& text, std::string* error)
{
    auto d = parseDevice(text);
    if (!d)
        *error = "unknown device '" + text + "'";
    return d;
}

std::optional<Bindings> bindingsOption(const Args& a, std::string* error)
{
    auto bindings = parseBindings(a.options("bind"));
    if (!bindings) {
        *error = bindings.error().message;
        return std::nullopt;
    }
    return std::move(*bindings);
}

std::optional<std::vector<DeviceProfile>> profileSetOption(const Args& a, std::string* setName, std::string* error)
{
    *setName = a.option("profiles").value_or("rlx-linux");
    auto set = rlxProfileSet(*setName);
    if (set.empty()) {
        *error = "unknown profile set '" + *setName + "' (rlx-linux or rlx-apple)";
        return std::nullopt;
    }
    return set;
}

std::optional<std::vector<std::int64_t>> idList(const std::string& text, std::string* error)
{
    std::vector<std::int64_t> ids;
    for (const std::string& item : splitCommas(text)) {
        auto v = parseInt(item);
        if (!v) {
            *error = "--nodes expects node ids like 3,4,5, found '" + text + "'";
            return std::nullopt;
        }
        ids.push_back(*v);
    }
    return ids;
}

} // namespace costscope::cli
