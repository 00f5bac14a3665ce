// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <memory>

namespace costscope {

// The CUDA backend for the backend factory (availableBackends/makeBackend). Defined only in builds with
// COSTSCOPE_HAVE_CUDA; the factory guards its call with that macro.
std::unique_ptr<Backend> makeCudaBackend();

} // namespace costscope
