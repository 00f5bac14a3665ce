// SPDX-License-Identifier: MIT
#include "ir/diagnostic.h"

#include <algorithm>

namespace costscope {

std::string Diagnostic::format(const std::string& file) const
{
    std::string s = file;
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0)
            s += ':' + std::to_string(column);
    }
    s += ": ";
    if (node) {
        s += "node " + std::to_string(*node);
        if (!nodeName.empty())
            s += " (" + nodeName + ")";
        s += ": ";
    }
    if (severity == Severity::Warning)
        s += "warning: ";
    return s + message;
}

bool hasErrors(const Diagnostics& d)
{
    return std::any_of(d.begin(), d.end(), [](const Diagnostic& x) { return x.isError(); });
}

} // namespace costscope
