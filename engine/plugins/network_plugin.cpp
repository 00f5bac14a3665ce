// SPDX-License-Identifier: MIT
#include "plugins/network_plugin.h"

#include "plugins/shared_module.h"

namespace costscope {

Result<const NetworkPlugin*> loadNetworkPlugin()
{
    static const Result<const NetworkPlugin*> loaded = loadPluginEntry<const NetworkPlugin>(
        "libcostscope_network.so", kNetworkPluginEntry, COSTSCOPE_NETWORK_PLUGIN_ABI);
    return loaded;
}

} // namespace costscope
