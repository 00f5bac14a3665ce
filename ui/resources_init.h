// SPDX-License-Identifier: MIT
#pragma once

namespace costscope {

// Registers the icons and bundled examples of costscope.qrc (idempotent).
void initResources();

} // namespace costscope
