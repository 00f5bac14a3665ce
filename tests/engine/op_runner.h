// SPDX-License-Identifier: MIT
#pragma once

// Builds one-op graphs and runs them on the CPU backend, for the kernel tests.
#include "cpu/cpu_backend.h"
#include "ir/graph.h"
#include "measure.h"
#include "tensor.h"

#include <QTest>

#include <cmath>
#include <vector>

namespace costscope::test {

inline HostTensor f32(std::vector<std::int64_t> dims, std::vector<float> v)
{
    return HostTensor::fromBytes(std::move(dims), DType::F32, v.data(), v.size() * sizeof(float));
}

inline HostTensor i64(std::vector<std::int64_t> dims, std::vector<std::int64_t> v)
{
    return HostTensor::fromBytes(std::move(dims), DType::I64, v.data(), v.size() * sizeof(std::int64_t));
}

inline Op makeOp(OpKind kind, std::initializer_list<std::pair<std::string, AttrValue>> attrs = {})
{
    Attrs a;
    for (const auto& [k, v] : attrs)
        a.set(k, v);
    return Op::make(kind, std::move(a));
}

// A graph of one Input node per tensor feeding `op`; `stated` is the op node's stated shape.
inline Graph oneOpGraph(const Op& op, const std::vector<HostTensor>& inputs, Shape stated = Shape::of({}))
{
    Graph g;
    g.name = "one_op";
    Node opNode;
    opNode.id = static_cast<NodeId>(inputs.size());
    opNode.op = op;
    opNode.shape = std::move(stated);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        Node n;
        n.id = static_cast<NodeId>(i);
        Attrs a;
        a.set("name", std::string("in") + std::to_string(i));
        n.op = Op::make(OpKind::Input, a);
        n.shape = inputs[i].shape();
        g.add(n);
        opNode.inputs.push_back(n.id);
    }
    g.add(opNode);
    g.outputs = {opNode.id};
    return g;
}

inline Result<HostTensor> runGraph(const Graph& g, const std::vector<HostTensor>& inputs, const Bindings& b = {})
{
    CpuBackend backend;
    auto plan = preparePlan(backend, g, b, 0, inputs);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->run(); !r)
        return r.error();
    auto out = (*plan)->readOutputs();
    if (!out)
        return out.error();
    return (*out)[0];
}

inline Result<HostTensor> runOp(const Op& op, const std::vector<HostTensor>& inputs, Shape stated = Shape::of({}))
{
    return runGraph(oneOpGraph(op, inputs, std::move(stated)), inputs);
}

// Fails the test (with the message) unless t has these dims and float values within tol.
inline bool sameFloats(const HostTensor& t, const std::vector<std::int64_t>& dims, const std::vector<float>& want,
                       double tol = 1e-5)
{
    if (t.dims() != dims) {
        qWarning("dims %s, expected %s", describe(t).c_str(), Shape::of(dims).toString().c_str());
        return false;
    }
    if (t.elements() != want.size())
        return false;
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double got = t.valueAsDouble(i);
        if (!(std::abs(got - want[i]) <= tol * std::max(1.0, std::abs(double(want[i]))))) {
            qWarning("element %zu: got %.7g, expected %.7g", i, got, double(want[i]));
            return false;
        }
    }
    return true;
}

} // namespace costscope::test

#define RUN_OK(expr)                                                                                                   \
    ([&] {                                                                                                             \
        auto r_ = (expr);                                                                                              \
        if (!r_)                                                                                                       \
            qWarning("run failed: %s", r_.error().format("graph").c_str());                                           \
        return r_;                                                                                                     \
    }())
