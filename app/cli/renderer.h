// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "render/render_plugin.h"

namespace costscope::cli {

// The PNG/PDF renderer plugin, loaded on first use (it brings Qt Gui); the error says why it is unavailable.
Result<const render::RenderPlugin*> loadRenderer();

} // namespace costscope::cli
