// SPDX-License-Identifier: MIT
#include "formats/onnx_scope.h"

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

std::string inheritedScope(const Graph& g, const Node& n)
{
    for (bool leavesFirst : {true, false})
        for (NodeId in : n.inputs)
            if (const Node* p = g.find(in); p && !p->scope.empty() && (!leavesFirst || isLeaf(*p)))
                return p->scope;
    return {};
}
} // namespace

void assignScopes(Graph& g)
{
    for (Node& n : g.nodes) {
        const std::string name = n.displayName();
        if (!name.empty() && name.find('/') != std::string::npos)
            n.scope = scopeFromPath(name);
        else if (isLeaf(n) && !name.empty())
            n.scope = scopeFromDotted(name);
        else
            n.scope = inheritedScope(g, n);
    }
}

} // namespace costscope::onnx_import
