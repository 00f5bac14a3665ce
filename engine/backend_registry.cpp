// SPDX-License-Identifier: MIT
#include "backend.h"
#include "cpu/cpu_backend.h"

namespace costscope {

std::vector<std::unique_ptr<Backend>> availableBackends()
{
    std::vector<std::unique_ptr<Backend>> list;
    list.push_back(std::make_unique<CpuBackend>());
    return list;
}

std::unique_ptr<Backend> makeBackend(const std::string& name)
{
    if (name == "cpu")
        return std::make_unique<CpuBackend>();
    return nullptr;
}

} // namespace costscope
