// SPDX-License-Identifier: MIT
#include "render/render.h"
#include "render/render_plugin.h"

#include <string_view>

extern "C" __attribute__((visibility("default"))) const costscope::render::RenderPlugin* costscope_render_plugin(
    const char* abi)
{
    static const costscope::render::RenderPlugin plugin{&costscope::render::svgToPng, &costscope::render::htmlToPdf};
    return std::string_view(abi) == COSTSCOPE_RENDER_PLUGIN_ABI ? &plugin : nullptr;
}
