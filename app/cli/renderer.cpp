// SPDX-License-Identifier: MIT
#include "cli/renderer.h"

#include "plugins/shared_module.h"

namespace costscope::cli {

Result<const render::RenderPlugin*> loadRenderer()
{
    static const Result<const render::RenderPlugin*> loaded = []() -> Result<const render::RenderPlugin*> {
        auto plugin = loadPluginEntry<const render::RenderPlugin>(
            "libcostscope_renderer.so", render::kRenderPluginEntry, COSTSCOPE_RENDER_PLUGIN_ABI);
        if (!plugin)
            return Diagnostic::error("PNG/PDF rendering is unavailable: " + plugin.error().message);
        return *plugin;
    }();
    return loaded;
}

} // namespace costscope::cli
