// SPDX-License-Identifier: MIT
#pragma once

// One-op graphs run on the Vulkan backend, with the validation layers on when installed.
#include "ir/graph.h"
#include "measure.h"
#include "tensor.h"
#include "vulkan/vulkan_register.h"

#include <QTest>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <vector>

namespace costscope::vktest {

inline HostTensor f32(std::vector<std::int64_t> dims, std::vector<float> v)
{
    return HostTensor::fromBytes(std::move(dims), DType::F32, v.data(), v.size() * sizeof(float));
}

inline HostTensor i64(std::vector<std::int64_t> dims, std::vector<std::int64_t> v)
{
    return HostTensor::fromBytes(std::move(dims), DType::I64, v.data(), v.size() * sizeof(std::int64_t));
}

inline HostTensor boolean(std::vector<std::int64_t> dims, std::vector<std::uint8_t> v)
{
    return HostTensor::fromBytes(std::move(dims), DType::Bool, v.data(), v.size());
}

// Deterministic values in [-1, 1) for larger shapes.
inline HostTensor ramp(std::vector<std::int64_t> dims, std::uint32_t seed)
{
    HostTensor t(std::move(dims), DType::F32);
    std::uint32_t s = seed * 2654435761u + 1;
    for (float& v : t.values<float>()) {
        s = s * 1664525u + 1013904223u;
        v = float(s >> 8) / float(1u << 23) - 1.0f;
    }
    return t;
}

inline Op makeOp(OpKind kind, std::initializer_list<std::pair<std::string, AttrValue>> attrs = {})
{
    Attrs a;
    for (const auto& [k, v] : attrs)
        a.set(k, v);
    return Op::make(kind, std::move(a));
}

// Input nodes 0..n-1 for the tensors, then `op` as node n, the graph's output.
inline Graph oneOpGraph(const Op& op, const std::vector<HostTensor>& inputs)
{
    Graph g;
    g.name = "one_op";
    Node opNode;
    opNode.id = static_cast<NodeId>(inputs.size());
    opNode.op = op;
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

// The process's Vulkan backend; null when no device exists.
inline Backend* vulkan()
{
    static std::unique_ptr<Backend> backend = [] {
        setenv("COSTSCOPE_VULKAN_VALIDATION", "1", 0);
        auto b = makeVulkanBackend();
        return b->devices().empty() ? nullptr : std::move(b);
    }();
    return backend.get();
}

inline Result<std::vector<HostTensor>> runGraphAll(const Graph& g, const std::vector<HostTensor>& inputs)
{
    auto plan = preparePlan(*vulkan(), g, {}, 0, inputs);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->run(); !r)
        return r.error();
    return (*plan)->readOutputs();
}

inline Result<HostTensor> runOp(const Op& op, const std::vector<HostTensor>& inputs)
{
    auto out = runGraphAll(oneOpGraph(op, inputs), inputs);
    if (!out)
        return out.error();
    return (*out)[0];
}

// Dims and values within tol (relative above 1, absolute below); logs the first mismatch.
inline bool sameValues(const HostTensor& t, const std::vector<std::int64_t>& dims, const std::vector<double>& want,
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
        if (!(std::abs(got - want[i]) <= tol * std::max(1.0, std::abs(want[i])))) {
            qWarning("element %zu: got %.7g, expected %.7g", i, got, want[i]);
            return false;
        }
    }
    return true;
}

inline bool sameTensor(const HostTensor& t, const HostTensor& want, double tol)
{
    std::vector<double> v;
    for (std::uint64_t i = 0; i < want.elements(); ++i)
        v.push_back(want.valueAsDouble(i));
    return sameValues(t, want.dims(), v, tol);
}

} // namespace costscope::vktest

#define VK_RUN(expr)                                                                                                   \
    ([&] {                                                                                                             \
        auto r_ = (expr);                                                                                              \
        if (!r_)                                                                                                       \
            qWarning("run failed: %s", r_.error().format("graph").c_str());                                           \
        return r_;                                                                                                     \
    }())
#define VK_REQUIRE_DEVICE()                                                                                            \
    do {                                                                                                               \
        if (!costscope::vktest::vulkan())                                                                              \
            QSKIP("no Vulkan device (install mesa-vulkan-drivers for lavapipe)");                                      \
    } while (0)
