// SPDX-License-Identifier: MIT
#include "cli/renderer.h"

#include "plugins/shared_module.h"

namespace costscope::cli {

Result<const render::RenderPlugin*> loadRenderer()
{
    static const Result<const render::RenderPlugin*> loaded = []() -> Result<const render::RenderPlugin*> {
        auto module = SharedModule::openPlugin("libcostscope_renderer.so");
        if (!module)
            return Diagnostic::error("PNG/PDF rendering is unavailable: " + module.error().message);
        auto entry = reinterpret_cast<render::RenderPluginEntry>(module->symbol(render::kRenderPluginEntry));
        const render::RenderPlugin* plugin = entry ? entry(COSTSCOPE_RENDER_PLUGIN_ABI) : nullptr;
        if (!plugin)
            return Diagnostic::error("PNG/PDF rendering is unavailable: " + module->path() +
                                     " is not this build's renderer");
        return plugin;
    }();
    return loaded;
}

} // namespace costscope::cli
