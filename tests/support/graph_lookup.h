// SPDX-License-Identifier: MIT
#pragma once
// Finding things in a loaded graph, for tests that link costscope_model.

#include "ir/graph.h"

#include <string>

namespace costscope::test {

inline const Node* nodeNamed(const Graph& g, const std::string& name)
{
    for (const Node& n : g.nodes)
        if (n.displayName() == name)
            return &n;
    return nullptr;
}

// True when a diagnostic's message contains the text.
inline bool mentions(const Diagnostics& diagnostics, const std::string& text)
{
    for (const Diagnostic& d : diagnostics)
        if (d.message.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace costscope::test
