// SPDX-License-Identifier: MIT
#include "formats/onnx_scope.h"

#include <algorithm>
#include <optional>

namespace costscope::onnx_import {

namespace {
std::string scopeFromPath(const std::string& name)
{
    const std::size_t begin = name.front() == '/' ? 1 : 0;
    const std::size_t last = name.rfind('/');
    return last == std::string::npos || last <= begin ? std::string{} : name.substr(begin, last - begin);
}

std::string scopeFromDotted(const std::string& name)
{
    const std::size_t last = name.rfind('.');
    if (last == std::string::npos || last == 0)
        return {};
    std::string scope = name.substr(0, last);
    for (char& c : scope)
        if (c == '.')
            c = '/';
    return scope;
}

bool isLeaf(const Node& n)
{
    return n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant || n.op.kind == OpKind::Input;
}

std::string commonPrefix(const std::string& a, const std::string& b)
{
    std::size_t end = 0;
    for (std::size_t i = 0; i <= std::min(a.size(), b.size()); ++i) {
        const bool aEnd = i == a.size() || a[i] == '/';
        const bool bEnd = i == b.size() || b[i] == '/';
        if (aEnd && bEnd)
            end = i;
        if (i == a.size() || i == b.size() || a[i] != b[i])
            break;
    }
    return a.substr(0, end);
}

// A weight read by several nodes (exporters deduplicate equal tensors: every LayerNorm may share one "ones"
// weight) says nothing about where a node belongs, so only leaves with a single reader lend their scope; a node
// with its own unnamed weight (BERT's "val_37") starts an unnamed group instead of continuing its input's.
std::string inheritedScope(const Graph& g, const Node& n, const std::vector<std::vector<std::size_t>>& readers)
{
    std::optional<std::string> shared;
    for (NodeId in : n.inputs) {
        const auto at = g.indexOf(in);
        if (!at)
            continue;
        const Node& p = g.nodes[*at];
        if (isLeaf(p)) {
            if (readers[*at].size() != 1)
                continue;
            if (!p.scope.empty())
                return p.scope;
            if (p.op.kind == OpKind::Param)
                return {};
            continue;
        }
        shared = shared ? commonPrefix(*shared, p.scope) : p.scope;
    }
    return shared.value_or(std::string{});
}

} // namespace

void assignScopes(Graph& g)
{
    const auto readers = g.consumers();
    for (Node& n : g.nodes) {
        const std::string name = n.displayName();
        if (!name.empty() && name.find('/') != std::string::npos)
            n.scope = scopeFromPath(name);
        else if (isLeaf(n) && !name.empty())
            n.scope = scopeFromDotted(name);
        else
            n.scope = inheritedScope(g, n, readers);
    }
}

} // namespace costscope::onnx_import
