// SPDX-License-Identifier: MIT
#include "analysis/io_profile.h"

#include "analysis/fused_kernel.h"
#include "analysis/io_bytes.h"
#include "ir/fused_op.h"

namespace costscope {

bool isRlxHostSync(const Op& op, IoProfileOptions o)
{
    // LogMelBackward is not in the catalogue; it loads as an unknown op that keeps its RLX name. A fused kernel
    // with a host-sync member still hands over to the host once (what fuseWhatIf counts).
    if (isFusedOp(op)) {
        const auto kernel = fusedKernel(op);
        return kernel && kernel->hostSync;
    }
    return op.info().hostSync || (op.kind == OpKind::Unknown && op.name == "LogMelBackward")
        || (o.fftHostSync && op.kind == OpKind::Fft);
}

std::uint64_t tensorBytes(const Shape& s, std::optional<std::uint64_t> elements)
{
    return elements ? checkedMul(*elements, byteSize(s.dtype)).value_or(0) : 0;
}

std::uint64_t tensorBytes(const Shape& s, const Bindings& b)
{
    return tensorBytes(s, s.elements(b));
}

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

std::vector<std::optional<std::uint64_t>> nodeElements(const Graph& g, const Bindings& b)
{
    std::vector<std::optional<std::uint64_t>> out;
    out.reserve(g.nodes.size());
    for (const Node& n : g.nodes)
        out.push_back(n.shape.elements(b));
    return out;
}

std::vector<std::uint64_t> nodeBytes(const Graph& g, const std::vector<std::optional<std::uint64_t>>& elements)
{
    std::vector<std::uint64_t> out;
    out.reserve(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        out.push_back(tensorBytes(g.nodes[i].shape, elements[i]));
    return out;
}

std::uint64_t nodeTrafficBytes(const Graph& g, const Node& n, const std::vector<std::uint64_t>& bytes)
{
    std::uint64_t total = bytes[*g.indexOf(n.id)];
    for (NodeId in : n.inputs)
        if (auto i = g.indexOf(in))
            total = saturatingAdd(total, bytes[*i]);
    return total;
}

std::uint64_t nodeTrafficBytes(const Graph& g, const Node& n, const Bindings& b)
{
    std::uint64_t bytes = tensorBytes(n.shape, b);
    for (NodeId in : n.inputs)
        if (const Node* src = g.find(in))
            bytes = saturatingAdd(bytes, tensorBytes(src->shape, b));
    return bytes;
}

IoProfile ioProfileOfBytes(const Graph& g, const std::vector<std::uint64_t>& bytes, IoProfileOptions o)
{
    IoProfile p;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        if (n.op.info().rlxMetadata)
            continue;
        ++p.kernelLaunches;
        p.deviceTrafficBytes = saturatingAdd(p.deviceTrafficBytes, nodeTrafficBytes(g, n, bytes));
        if (isRlxHostSync(n.op, o))
            ++p.syncPoints;
        if (g.isOutput(n.id))
            p.hostOutputBytes = saturatingAdd(p.hostOutputBytes, bytes[i]);
    }
    return p;
}

IoProfile ioProfile(const Graph& g, const Bindings& b, IoProfileOptions o)
{
    return ioProfileOfBytes(g, nodeBytes(g, nodeElements(g, b)), o);
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
