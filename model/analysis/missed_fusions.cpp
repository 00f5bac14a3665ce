// SPDX-License-Identifier: MIT
#include "analysis/missed_fusions.h"

#include <algorithm>
#include <map>

namespace costscope {
namespace {

// The activations the GEMM epilogue applies (RLX HIR's FusedMatMulBiasAct activation: "Gelu" or none).
bool epilogueActivation(const std::string& act)
{
    return act == "Gelu" || act == "GeluApprox";
}

bool isWeight(const Node& n)
{
    return n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant;
}

bool isBinary(const Node& n, const char* op)
{
    return n.op.kind == OpKind::Binary && n.op.subOp() == op;
}

std::string nameOf(const Node& n)
{
    return n.displayName().empty() ? n.op.label() : n.displayName();
}

class Finder {
public:
    explicit Finder(const Graph& g) : m_g(g), m_consumers(g.consumers()) {}

    std::vector<MissedFusion> run()
    {
        for (std::size_t i = 0; i < m_g.nodes.size(); ++i) {
            const Node& n = m_g.nodes[i];
            if (n.op.kind == OpKind::MatMul)
                epilogue(i);
            if (isBinary(n, "Mul") && n.inputs.size() == 2)
                swiGlu(n);
        }
        sharedInputs();
        return std::move(m_found);
    }

private:
    const Node* input(const Node& n, std::size_t slot) const
    {
        return slot < n.inputs.size() ? m_g.find(n.inputs[slot]) : nullptr;
    }

    void add(const Node& at, MissedFusionReason reason, std::string hint)
    {
        m_found.push_back({at.id, reason, std::move(hint)});
    }

    void epilogue(std::size_t matmul)
    {
        const Node& mm = m_g.nodes[matmul];
        const auto& readers = m_consumers[matmul];
        if (readers.empty())
            return;
        if (readers.size() > 1) {
            for (std::size_t r : readers)
                if (isBinary(m_g.nodes[r], "Add")) {
                    add(mm, MissedFusionReason::MultiConsumer,
                        "the product is read by " + std::to_string(readers.size())
                            + " nodes besides being biased: the epilogue can only write the biased result; read that "
                              "instead");
                    return;
                }
            return;
        }
        const Node& reader = m_g.nodes[readers.front()];
        if (reader.op.kind != OpKind::Binary || reader.inputs.size() != 2)
            return;
        const Node* other = input(reader, reader.inputs[0] == mm.id ? 1 : 0);
        if (!other)
            return;
        if (reader.op.subOp() != "Add") {
            if (isWeight(*other))
                add(mm, MissedFusionReason::NonAddBiasConsumer,
                    "its reader is " + reader.op.subOp() + " with " + nameOf(*other)
                        + ", not Add: only a bias Add joins the GEMM epilogue");
            return;
        }
        if (other->shape.rank() > 1) {
            add(mm, MissedFusionReason::BiasRankTooHigh,
                "the bias " + nameOf(*other) + " is " + other->shape.toString()
                    + ": the epilogue adds a vector over the last dim; reshape it to rank 1");
            return;
        }
        const auto& afterBias = m_consumers[*m_g.indexOf(reader.id)];
        if (afterBias.size() != 1)
            return;
        const Node& act = m_g.nodes[afterBias.front()];
        if (act.op.kind == OpKind::Activation && !epilogueActivation(act.op.subOp()))
            add(mm, MissedFusionReason::UnsupportedActivation,
                act.op.subOp() + " after the bias: the epilogue applies Gelu or nothing, so the bias fuses and "
                    + act.op.subOp() + " stays a kernel of its own");
    }

    void swiGlu(const Node& mul)
    {
        const Node* a = input(mul, 0);
        const Node* b = input(mul, 1);
        auto gateOf = [this](const Node* n) -> const Node* {
            if (!n || n->op.kind != OpKind::Activation || n->op.subOp() != "Silu")
                return nullptr;
            const Node* mm = input(*n, 0);
            return mm && mm->op.kind == OpKind::MatMul ? mm : nullptr;
        };
        auto isMatMul = [](const Node* n) { return n && n->op.kind == OpKind::MatMul; };
        const Node* gate = gateOf(a);
        const Node* up = b;
        bool swapped = false;
        if (!gate || !isMatMul(up)) {
            gate = gateOf(b);
            up = a;
            swapped = true;
        }
        if (!gate || !isMatMul(up))
            return;
        if (swapped)
            add(mul, MissedFusionReason::SwiGluOrder,
                "Mul(up, Silu(gate)): the fused SwiGLU reads the gated operand first; swap the Mul's inputs");
        if (gate->inputs.empty() || up->inputs.empty() || gate->inputs[0] != up->inputs[0]) {
            add(mul, MissedFusionReason::SwiGluSharedInput,
                "the gate (" + nameOf(*gate) + ") and up (" + nameOf(*up)
                    + ") projections read different tensors: the fused SwiGLU projects one input twice");
        }
    }

    void sharedInputs()
    {
        std::map<NodeId, std::vector<const Node*>> byInput;
        for (const Node& n : m_g.nodes)
            if (n.op.kind == OpKind::MatMul && n.inputs.size() == 2)
                if (const Node* w = input(n, 1); w && isWeight(*w))
                    byInput[n.inputs[0]].push_back(&n);
        constexpr std::size_t kMostMerged = 3;
        for (const auto& [x, readers] : byInput) {
            if (readers.size() <= kMostMerged)
                continue;
            const Node* shared = m_g.find(x);
            for (const Node* mm : readers)
                add(*mm, MissedFusionReason::SharedMatMulCount,
                    std::to_string(readers.size()) + " MatMuls read " + (shared ? nameOf(*shared) : "one tensor")
                        + ": a shared-input GEMM merges 2 (gate/up) or 3 (Q/K/V); concatenate the weights instead");
        }
    }

    const Graph& m_g;
    std::vector<std::vector<std::size_t>> m_consumers;
    std::vector<MissedFusion> m_found;
};

} // namespace

std::vector<MissedFusion> missedFusions(const Graph& g)
{
    auto found = Finder(g).run();
    std::stable_sort(found.begin(), found.end(), [&g](const MissedFusion& a, const MissedFusion& b) {
        return g.indexOf(a.node).value_or(0) < g.indexOf(b.node).value_or(0);
    });
    return found;
}

std::string_view missedFusionName(MissedFusionReason reason)
{
    switch (reason) {
    case MissedFusionReason::MultiConsumer:
        return "multi-consumer";
    case MissedFusionReason::NonAddBiasConsumer:
        return "non-add bias consumer";
    case MissedFusionReason::BiasRankTooHigh:
        return "bias rank too high";
    case MissedFusionReason::UnsupportedActivation:
        return "unsupported epilogue activation";
    case MissedFusionReason::SharedMatMulCount:
        return "shared matmul count";
    case MissedFusionReason::SwiGluOrder:
        return "SwiGLU order";
    case MissedFusionReason::SwiGluSharedInput:
        return "SwiGLU shared input";
    }
    return "?";
}

} // namespace costscope
