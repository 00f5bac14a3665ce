// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "ir/shape.h"

#include <string>
#include <vector>

namespace costscope {

// Symbol bindings as the user writes them, "SYMBOL=N" with N >= 0 (costscope-cli's --bind, repeated); a later
// binding of the same symbol replaces an earlier one. The error names the first bad item.
Result<Bindings> parseBindings(const std::vector<std::string>& items);

} // namespace costscope
