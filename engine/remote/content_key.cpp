// SPDX-License-Identifier: MIT
#include "remote/content_key.h"

#include "plugins/network_plugin.h"

#include <filesystem>

namespace costscope {

namespace {
Result<const NetworkPlugin*> hasher()
{
    auto network = loadNetworkPlugin();
    if (!network)
        return Diagnostic::error("SHA-256 is unavailable: " + network.error().message);
    return network;
}
} // namespace

Result<std::string> sha256OfText(const std::string& text)
{
    auto network = hasher();
    if (!network)
        return network.error();
    return (*network)->sha256OfText(text);
}

Result<std::string> sha256OfFile(const std::string& path)
{
    auto network = hasher();
    if (!network)
        return network.error();
    return (*network)->sha256OfFile(path);
}

Result<std::string> contentKey(const std::string& graphFile, const std::vector<std::string>& companions)
{
    auto graph = sha256OfFile(graphFile);
    if (!graph || companions.empty())
        return graph;
    // The SHA-256 of these lines, one after another: the graph's digest, then each companion's name and digest.
    std::string all = *graph + '\n';
    for (const std::string& f : companions) {
        auto one = sha256OfFile(f);
        if (!one)
            return one.error();
        all += std::filesystem::path(f).filename().string() + '\0' + *one + '\n';
    }
    return sha256OfText(all);
}

} // namespace costscope
