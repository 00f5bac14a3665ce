// SPDX-License-Identifier: MIT
#pragma once
// Qt-free: which nodes a neighbourhood view shows is tested headless.
#include "ir/graph.h"
#include <vector>

namespace costscope {

// The nodes within `hops` edges of `centre`, following edges both ways (what it reads and what reads it), by graph
// position; `centre` itself is always in. Empty when `centre` is not a position of `g`.
std::vector<bool> neighbourhood(const Graph& g, std::size_t centre, int hops);

} // namespace costscope
