// SPDX-License-Identifier: MIT
#include "host_constant.h"

#include "cpu/cpu_backend.h"
#include "measure.h"

namespace costscope {

std::optional<HostTensor> evaluateOnHost(const Graph& g, const Node& n, const Bindings& bindings)
{
    Graph one;
    for (NodeId id : n.inputs)
        if (!one.find(id))
            one.add(*g.find(id));
    one.add(n);
    one.outputs = {n.id};
    CpuBackend cpu(1);
    auto plan = preparePlan(cpu, one, bindings, 0, {});
    if (!plan || !(*plan)->run())
        return std::nullopt;
    auto out = (*plan)->readOutputs();
    if (!out || out->size() != 1)
        return std::nullopt;
    return std::move(out->front());
}

void makeConstant(Node& n, const HostTensor& value)
{
    n.op = Op::make(OpKind::Constant);
    n.shape = value.shape();
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(value.bytes());
    n.data = makeTensorData(std::vector<std::uint8_t>(bytes, bytes + value.byteSize()));
    n.inputs.clear();
    n.subgraphs.clear();
}

} // namespace costscope
