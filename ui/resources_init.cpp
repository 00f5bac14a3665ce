// SPDX-License-Identifier: MIT
#include "resources_init.h"
#include <QtCore/qresource.h>

// Q_INIT_RESOURCE must be used outside any namespace; a static library's resources are not registered alone.
static void initCostscopeResources() { Q_INIT_RESOURCE(costscope); }

namespace costscope {

void initResources()
{
    static const bool done = (initCostscopeResources(), true);
    (void)done;
}

} // namespace costscope
