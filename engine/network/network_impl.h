// SPDX-License-Identifier: MIT
#pragma once
// What libcostscope_network.so hands out (plugins/network_plugin.h): only the plugin links libcurl and libcrypto.
#include "fleet/http_client.h"

#include <string>

namespace costscope::network {

// httpRequest() (fleet/http_client.h) through libcurl.
Result<HttpResponse> curlHttpRequest(const std::string& method, const std::string& url, const std::string& jsonBody,
                                     std::chrono::milliseconds timeout);
// sha256OfFile() and sha256OfText() (remote/content_key.h) through OpenSSL's libcrypto.
Result<std::string> sha256OfFile(const std::string& path);
std::string sha256OfText(const std::string& text);

} // namespace costscope::network
