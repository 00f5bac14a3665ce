// SPDX-License-Identifier: MIT
#include "jobs/cost_job.h"

namespace costscope {

QStringList costModelNames() { return {QStringLiteral("rlx"), QStringLiteral("costscope")}; }

// Spelled as parseDevice accepts them; the order is what the toolbar shows.
QStringList costDeviceNames()
{
    return {QStringLiteral("Cpu"),   QStringLiteral("Cuda"),   QStringLiteral("Metal"), QStringLiteral("Mlx"),
            QStringLiteral("Rocm"),  QStringLiteral("Vulkan"), QStringLiteral("Gpu"),   QStringLiteral("Tpu")};
}

} // namespace costscope
