// SPDX-License-Identifier: MIT
#pragma once
// Qt-free: costscope-cli loads the renderer as a plugin (libcostscope_renderer.so) only when it writes a PNG or PDF,
// so that its other commands start without loading Qt Gui.
#include <string>

#define COSTSCOPE_RENDER_PLUGIN_ABI ("costscope-render-plugin-1 " COSTSCOPE_VERSION " " __VERSION__)

namespace costscope::render {

struct RenderPlugin {
    bool (*svgToPng)(const std::string& svg, const std::string& path, std::string* error);
    bool (*htmlToPdf)(const std::string& html, const std::string& path, std::string* error);
};

// The one symbol the renderer plugin exports: `extern "C" const RenderPlugin* costscope_render_plugin(const char*
// abi)`, nullptr when `abi` is not its own COSTSCOPE_RENDER_PLUGIN_ABI.
inline constexpr const char* kRenderPluginEntry = "costscope_render_plugin";

} // namespace costscope::render
