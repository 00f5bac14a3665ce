// SPDX-License-Identifier: MIT
#include "fleet/http_client.h"

#include "plugins/network_plugin.h"

namespace costscope {

Result<HttpResponse> httpRequest(const std::string& method, const std::string& url, const std::string& jsonBody,
                                 std::chrono::milliseconds timeout)
{
    auto network = loadNetworkPlugin();
    if (!network)
        return Diagnostic::error(method + ' ' + url + ": HTTP is unavailable: " + network.error().message);
    return (*network)->httpRequest(method, url, jsonBody, timeout);
}

} // namespace costscope
