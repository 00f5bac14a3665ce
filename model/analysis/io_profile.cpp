// SPDX-License-Identifier: MIT
#include "analysis/io_profile.h"

#include "analysis/io_bytes.h"

namespace costscope {

bool isRlxHostSync(const Op& op, IoProfileOptions o)
{
    // LogMelBackward is not in the catalogue; it loads as an unknown op that keeps its RLX name.
    return op.info().hostSync || (op.kind == OpKind::Unknown && op.name == "LogMelBackward")
        || (o.fftHostSync && op.kind == OpKind::Fft);
}

std::uint64_t tensorBytes(const Shape& s, const Bindings& b)
{
    return s.bytes(b).value_or(0);
}

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

std::uint64_t nodeTrafficBytes(const Graph& g, const Node& n, const Bindings& b)
{
    std::uint64_t bytes = tensorBytes(n.shape, b);
    for (NodeId in : n.inputs)
        if (const Node* src = g.find(in))
            bytes = saturatingAdd(bytes, tensorBytes(src->shape, b));
    return bytes;
}

IoProfile ioProfile(const Graph& g, const Bindings& b, IoProfileOptions o)
{
    IoProfile p;
    for (const Node& n : g.nodes) {
        if (n.op.info().rlxMetadata)
            continue;
        ++p.kernelLaunches;
        p.deviceTrafficBytes = saturatingAdd(p.deviceTrafficBytes, nodeTrafficBytes(g, n, b));
        if (isRlxHostSync(n.op, o))
            ++p.syncPoints;
        if (g.isOutput(n.id))
            p.hostOutputBytes = saturatingAdd(p.hostOutputBytes, tensorBytes(n.shape, b));
    }
    return p;
}

IoProfile ioProfileSelected(const Graph& g, const std::vector<std::size_t>& outputIndices, const Bindings& b,
                            IoProfileOptions o)
{
    IoProfile p = ioProfile(g, b, o);
    p.hostOutputBytes = 0;
    for (std::size_t i : outputIndices) {
        if (i >= g.outputs.size())
            continue;
        if (const Node* n = g.find(g.outputs[i])) {
            auto elements = n->shape.elements(b);
            auto bytes = elements ? checkedMul(*elements, 4) : std::nullopt;
            p.hostOutputBytes = saturatingAdd(p.hostOutputBytes, bytes.value_or(0));
        }
    }
    return p;
}

} // namespace costscope
