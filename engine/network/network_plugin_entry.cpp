// SPDX-License-Identifier: MIT
// libcostscope_network.so's one exported symbol (plugins/network_plugin.h).
#include "network/network_impl.h"
#include "plugins/network_plugin.h"

#include <string_view>

extern "C" __attribute__((visibility("default"))) const costscope::NetworkPlugin*
costscope_network_plugin(const char* abi)
{
    static const costscope::NetworkPlugin plugin{costscope::network::curlHttpRequest, costscope::network::sha256OfFile,
                                                 costscope::network::sha256OfText};
    return std::string_view(abi) == COSTSCOPE_NETWORK_PLUGIN_ABI ? &plugin : nullptr;
}
