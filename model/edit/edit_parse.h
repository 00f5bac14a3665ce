// SPDX-License-Identifier: MIT
#pragma once

#include "ir/attribute.h"
#include "ir/diagnostic.h"
#include "ir/shape.h"

#include <string>

namespace costscope::edit {

// "F32[batch,784]", "[2,3]" (F32), "I64[]" (a scalar). Dims are sizes ≥ 0 or symbol names.
Result<Shape> parseShape(const std::string& text);

// Text typed into the property panel, read in the type of `like` (the attribute's current value): "true",
// "42", "1e-5", "Gelu", "[1,2]" or "1, 2", "[a,b]", or JSON for a structured value. `like` = monostate reads any
// JSON value (or plain text as a string). The error says what was expected.
Result<AttrValue> parseAttrValue(const AttrValue& like, const std::string& text);

} // namespace costscope::edit
