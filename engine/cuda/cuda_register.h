// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <memory>

namespace costscope {

// The CUDA backend for the backend factory (availableBackends/makeBackend); nullptr in builds without CUDA is
// the factory's business: this header exists only where COSTSCOPE_HAVE_CUDA is defined.
std::unique_ptr<Backend> makeCudaBackend();

} // namespace costscope
