// SPDX-License-Identifier: MIT
#pragma once
// libcurl (fleet/: Ray's Jobs API) and OpenSSL's libcrypto (remote/: the SHA-256 names of the graph cache) bring some
// thirty shared libraries with them, whose loading and relocation cost every CLI call milliseconds and megabytes
// that `--version` or `info` never use. They are a plugin (libcostscope_network.so, built from engine/network/)
// that the commands reaching other machines load on first use.
#include "fleet/http_client.h"

#include <string>

#define COSTSCOPE_NETWORK_PLUGIN_ABI ("costscope-network-plugin-1 " COSTSCOPE_VERSION " " __VERSION__)

namespace costscope {

struct NetworkPlugin {
    Result<HttpResponse> (*httpRequest)(const std::string& method, const std::string& url, const std::string& jsonBody,
                                        std::chrono::milliseconds timeout);
    Result<std::string> (*sha256OfFile)(const std::string& path);
    std::string (*sha256OfText)(const std::string& text);
};

// The one symbol the plugin exports: `extern "C" const NetworkPlugin* costscope_network_plugin(const char* abi)`,
// nullptr when `abi` is not its own COSTSCOPE_NETWORK_PLUGIN_ABI.
inline constexpr const char* kNetworkPluginEntry = "costscope_network_plugin";

// The plugin, loaded once per process; the error says why it is unavailable.
Result<const NetworkPlugin*> loadNetworkPlugin();

} // namespace costscope
