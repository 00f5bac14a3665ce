// SPDX-License-Identifier: MIT
#pragma once
// Building blocks of the CUDA backend's op cases (cuda_case_list.h): a tiny graph builder and host reference
// helpers. Shared by the Qt test and the Qt-free benchmark driver that runs on the GPU machine. No Qt here.

#include "ir/graph.h"
#include "tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace costscope::cudacases {

struct Case {
    std::string name;
    Graph graph;
    std::vector<HostTensor> inputs;
    std::vector<float> expected; // the graph's output, flattened, computed on the host
    double tolerance = 1e-4;     // max |got - want| / max(1, |want|)
};

class Builder {
public:
    Graph g;

    NodeId input(std::vector<std::int64_t> dims, DType t = DType::F32)
    {
        return add(Op::make(OpKind::Input), {}, std::move(dims), t, "in" + std::to_string(m_next));
    }
    NodeId param(std::vector<std::int64_t> dims, const std::vector<float>& values)
    {
        const NodeId id = add(Op::make(OpKind::Param), {}, std::move(dims), DType::F32, "p" + std::to_string(m_next));
        std::vector<std::uint8_t> bytes(values.size() * 4);
        std::memcpy(bytes.data(), values.data(), bytes.size());
        g.nodes.back().data = makeTensorData(std::move(bytes));
        return id;
    }
    NodeId indices(std::vector<std::int64_t> dims, const std::vector<std::int64_t>& values)
    {
        const NodeId id = add(Op::make(OpKind::Constant), {}, std::move(dims), DType::I64, {});
        std::vector<std::uint8_t> bytes(values.size() * 8);
        std::memcpy(bytes.data(), values.data(), bytes.size());
        g.nodes.back().data = makeTensorData(std::move(bytes));
        return id;
    }
    NodeId op(OpKind kind, Attrs attrs, std::vector<NodeId> in, std::vector<std::int64_t> dims, DType t = DType::F32)
    {
        return add(Op::make(kind, std::move(attrs)), std::move(in), std::move(dims), t, {});
    }
    Graph finish(NodeId output)
    {
        g.outputs = {output};
        return g;
    }

private:
    NodeId add(Op op, std::vector<NodeId> in, std::vector<std::int64_t> dims, DType t, std::string name)
    {
        Node n;
        n.id = m_next++;
        n.op = std::move(op);
        n.inputs = std::move(in);
        n.shape = Shape::of(std::move(dims), t);
        if (!name.empty())
            n.name = name;
        g.nodes.push_back(std::move(n));
        return g.nodes.back().id;
    }
    NodeId m_next = 1;
};

inline Attrs attrs(std::initializer_list<std::pair<std::string, AttrValue>> list)
{
    Attrs a;
    for (const auto& [k, v] : list)
        a.set(k, v);
    return a;
}

// Deterministic values in [-1, 1] that differ per (seed, index).
inline std::vector<float> values(std::size_t n, int seed)
{
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = static_cast<float>(std::sin(double(i) * 0.7 + seed * 1.3));
    return v;
}

inline HostTensor tensor(std::vector<std::int64_t> dims, const std::vector<float>& v)
{
    return HostTensor::fromBytes(std::move(dims), DType::F32, v.data(), v.size() * 4);
}

// Row-major reference C[m,n] = A[m,k] B[k,n].
inline std::vector<float> matmulRef(const float* a, const float* b, int m, int k, int n)
{
    std::vector<float> c(static_cast<std::size_t>(m * n));
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double acc = 0;
            for (int p = 0; p < k; ++p)
                acc += double(a[i * k + p]) * b[p * n + j];
            c[static_cast<std::size_t>(i * n + j)] = float(acc);
        }
    return c;
}

// The largest relative error of got against want; a size mismatch or a NaN counts as infinite.
inline double maxError(const HostTensor& got, const std::vector<float>& want)
{
    auto v = got.values<float>();
    if (v.size() != want.size())
        return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double e = std::abs(double(v[i]) - want[i]) / std::max(1.0, std::abs(double(want[i])));
        worst = std::isnan(e) ? INFINITY : std::max(worst, e);
    }
    return worst;
}

} // namespace costscope::cudacases
