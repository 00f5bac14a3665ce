// SPDX-License-Identifier: MIT
#include "fusion_plan.h"

#include "half.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

namespace costscope {

namespace {
using Dims = std::vector<std::int64_t>;

// What the planner knows of the graph: resolved dims per position, consumers, topological ranks.
struct View {
    const Graph& g;
    std::vector<std::optional<Dims>> dims;
    std::vector<std::vector<std::size_t>> consumers;
    std::vector<std::size_t> order, rank;
    std::vector<bool> output;
    bool sixteenBit = false;

    std::size_t pos(NodeId id) const { return *g.indexOf(id); }
    const Node& node(std::size_t p) const { return g.nodes[p]; }
    DType dtype(std::size_t p) const { return g.nodes[p].shape.dtype; }
};

View makeView(const Graph& g, const Bindings& bindings, bool sixteenBit)
{
    View v{g, {}, g.consumers(), {}, std::vector<std::size_t>(g.nodes.size(), 0), {}, sixteenBit};
    for (const Node& n : g.nodes) {
        Dims d;
        bool resolved = n.shape.rank() <= kMaxRank;
        for (const Dim& dim : n.shape.dims) {
            auto r = dim.resolve(bindings);
            resolved = resolved && r && *r >= 0;
            d.push_back(r.value_or(0));
        }
        v.dims.push_back(resolved ? std::optional<Dims>(d) : std::nullopt);
        v.output.push_back(g.isOutput(n.id));
    }
    if (auto order = g.topologicalOrder())
        v.order = *order;
    for (std::size_t i = 0; i < v.order.size(); ++i)
        v.rank[v.order[i]] = i;
    return v;
}

bool broadcastsInto(const Dims& in, const Dims& out)
{
    if (in.size() > out.size())
        return false;
    const std::size_t shift = out.size() - in.size();
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i] != out[i + shift] && in[i] != 1)
            return false;
    return true;
}

// The float types a group computes over: F32, and F16/BF16 where the backend asked for them.
bool isGroupFloat(const View& v, DType t)
{
    return t == DType::F32 || (v.sixteenBit && (t == DType::F16 || t == DType::BF16));
}

bool castSourceType(const View& v, DType t)
{
    return isGroupFloat(v, t) || t == DType::F64 || t == DType::I64 || t == DType::I32 || t == DType::U8
           || t == DType::Bool;
}

bool inputsAre(const View& v, const Node& n, DType t)
{
    return std::all_of(n.inputs.begin(), n.inputs.end(), [&](NodeId id) { return v.dtype(v.pos(id)) == t; });
}

bool isElementWise(const View& v, std::size_t p)
{
    const Node& n = v.node(p);
    if (!v.dims[p] || !isGroupFloat(v, n.shape.dtype))
        return false;
    switch (n.op.kind) {
    case OpKind::Binary:
        return n.inputs.size() == 2 && isFusableBinary(n.op.subOp()) && inputsAre(v, n, n.shape.dtype);
    case OpKind::Activation:
        return n.inputs.size() == 1 && isFusableActivation(n.op.subOp()) && inputsAre(v, n, n.shape.dtype);
    case OpKind::Cast:
        return n.inputs.size() == 1 && castSourceType(v, v.dtype(v.pos(n.inputs[0])));
    default:
        return false;
    }
}

// Distinct tensors the members read from outside the group.
std::size_t leafCount(const View& v, const std::vector<std::size_t>& members, const std::vector<bool>& inGroup)
{
    std::set<std::size_t> leaves;
    for (std::size_t m : members)
        for (NodeId id : v.node(m).inputs)
            if (!inGroup[v.pos(id)])
                leaves.insert(v.pos(id));
    return leaves.size();
}

// Grows an element-wise group from its exit towards its inputs: a producer joins when it is element-wise, free,
// not a graph output, read only by members, and its shape broadcasts into the exit's.
std::vector<std::size_t> growElementWise(const View& v, std::size_t exit, const std::vector<int>& groupOf,
                                         const FusionOptions& o)
{
    std::vector<std::size_t> members = {exit};
    std::vector<bool> inGroup(v.g.nodes.size(), false);
    inGroup[exit] = true;
    auto joins = [&](std::size_t p) {
        if (inGroup[p] || groupOf[p] >= 0 || v.output[p] || !isElementWise(v, p)
            || !broadcastsInto(*v.dims[p], *v.dims[exit]))
            return false;
        return std::all_of(v.consumers[p].begin(), v.consumers[p].end(), [&](std::size_t c) { return inGroup[c]; });
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < members.size() && members.size() < o.maxOps; ++i)
            for (NodeId id : v.node(members[i]).inputs) {
                const std::size_t p = v.pos(id);
                if (members.size() >= o.maxOps || !joins(p))
                    continue;
                members.push_back(p);
                inGroup[p] = true;
                if (leafCount(v, members, inGroup) > o.maxInputs) {
                    members.pop_back();
                    inGroup[p] = false;
                    continue;
                }
                changed = true;
            }
    }
    if (leafCount(v, members, inGroup) > o.maxInputs)
        return {exit};
    return members;
}

bool isBiasVector(const Dims& d, std::int64_t n)
{
    if (d.empty() || d.back() != n)
        return false;
    return std::all_of(d.begin(), d.end() - 1, [](std::int64_t x) { return x == 1; });
}

// A MatMul or FusedMatMulBiasAct with a matrix weight and the Adds and activation after it that an epilogue computes;
// no members when there is nothing to fuse.
FusionGroup growGemmEpilogue(const View& v, std::size_t root, const std::vector<int>& groupOf)
{
    FusionGroup group{FusionGroup::Kind::GemmEpilogue, {}, {}, {}, {}, {}};
    const Node& r = v.node(root);
    const bool fused = r.op.kind == OpKind::FusedMatMulBiasAct;
    const DType type = r.shape.dtype;
    if ((r.op.kind != OpKind::MatMul && !fused) || !v.dims[root] || !isGroupFloat(v, type) || r.inputs.size() < 2
        || !inputsAre(v, r, type))
        return group;
    const auto& a = v.dims[v.pos(r.inputs[0])];
    const auto& w = v.dims[v.pos(r.inputs[1])];
    const Dims& out = *v.dims[root];
    if (!a || !w || a->size() < 2 || w->size() != 2 || out.empty())
        return group;
    const std::int64_t n = out.back();
    if (fused && r.inputs.size() > 2) {
        group.bias = v.pos(r.inputs[2]);
        if (!v.dims[*group.bias] || !isBiasVector(*v.dims[*group.bias], n))
            return group;
    }
    group.activation = fused ? r.op.attrs.stringOr("activation", "") : "";
    if (!group.activation.empty() && !isEpilogueActivation(group.activation))
        return group;
    std::vector<std::size_t> members = {root};
    for (std::size_t cur = root; group.activation.empty() && !v.output[cur] && v.consumers[cur].size() == 1;) {
        const std::size_t c = v.consumers[cur].front();
        const Node& cn = v.node(c);
        if (groupOf[c] >= 0 || v.dims[c] != v.dims[root])
            break;
        if (cn.op.kind == OpKind::Activation && isEpilogueActivation(cn.op.subOp())) {
            group.activation = cn.op.subOp();
        } else if (cn.op.kind == OpKind::Binary && cn.op.subOp() == "Add" && cn.inputs.size() == 2) {
            const std::size_t x = v.pos(cn.inputs[0]), y = v.pos(cn.inputs[1]);
            const std::size_t other = x == cur ? y : x;
            if (other == cur || v.dtype(other) != type || cn.shape.dtype != type || !v.dims[other])
                break;
            if (!group.bias && isBiasVector(*v.dims[other], n))
                group.bias = other;
            else if (!group.residual && *v.dims[other] == out)
                group.residual = other;
            else
                break;
        } else {
            break;
        }
        members.push_back(c);
        cur = c;
    }
    if (members.size() > 1 || group.bias || !group.activation.empty())
        group.members = std::move(members);
    return group;
}

// The one value of a Param or Constant with data in `type` (F32, or F16/BF16 decoded exactly); nullopt for anything
// else.
std::optional<double> scalarConstant(const View& v, std::size_t p, DType type)
{
    const Node& n = v.node(p);
    const std::size_t bytes = type == DType::F32 ? sizeof(float) : sizeof(std::uint16_t);
    if ((n.op.kind != OpKind::Param && n.op.kind != OpKind::Constant) || n.shape.dtype != type || !isGroupFloat(v, type)
        || !n.data || n.data->size() != bytes || !v.dims[p])
        return std::nullopt;
    if (type == DType::F32) {
        float value = 0;
        std::memcpy(&value, n.data->data(), sizeof value);
        return value;
    }
    std::uint16_t bits = 0;
    std::memcpy(&bits, n.data->data(), sizeof bits);
    return type == DType::BF16 ? bf16ToFloat(bits) : halfToFloat(bits);
}

bool isTranspose(const View& v, std::size_t p, const Dims& perm)
{
    const Node& n = v.node(p);
    return n.op.kind == OpKind::Transpose && n.inputs.size() == 1 && n.op.attrs.intsOr("perm", {}) == perm;
}

// Read by `user` alone, free, no graph output, of the group's type: a node an attention group may keep inside its
// kernel.
bool onlyFeeds(const View& v, std::size_t p, std::size_t user, const std::vector<int>& groupOf, DType type)
{
    return groupOf[p] < 0 && !v.output[p] && v.consumers[p].size() == 1 && v.consumers[p].front() == user && v.dims[p]
           && v.dtype(p) == type;
}

// The attention pattern ending at MatMul `p2` (see fusion_plan.h); no members when it is not one. Every member, q,
// k, v and an additive mask share one float type (F32, or F16/BF16 with FusionOptions::sixteenBit): the kernel loads
// that storage type and computes in float.
FusionGroup growAttention(const View& v, std::size_t p2, const std::vector<int>& groupOf)
{
    FusionGroup group{FusionGroup::Kind::Attention, {}, {}, {}, {}, {}};
    const Node& mm2 = v.node(p2);
    const DType type = v.dtype(p2);
    if (mm2.op.kind != OpKind::MatMul || mm2.inputs.size() != 2 || groupOf[p2] >= 0 || !v.dims[p2]
        || !isGroupFloat(v, type))
        return group;
    auto keeps = [&](std::size_t p, std::size_t user) { return onlyFeeds(v, p, user, groupOf, type); };
    std::vector<std::size_t> members = {p2};
    const std::size_t softmax = v.pos(mm2.inputs[0]), vOp = v.pos(mm2.inputs[1]);
    const Node& sm = v.node(softmax);
    if (sm.op.kind != OpKind::Softmax || sm.inputs.size() != 1 || !keeps(softmax, p2))
        return group;
    const std::int64_t rank = std::int64_t(v.dims[softmax]->size());
    const std::int64_t axis = sm.op.attrs.intOr("axis", -1);
    if (rank < 3 || (axis != -1 && axis != rank - 1))
        return group;
    members.push_back(softmax);
    // Back from the Softmax: an additive mask, then a scale, then MatMul(q, k^T).
    std::size_t cur = v.pos(sm.inputs[0]), user = softmax;
    const Dims& scores = *v.dims[softmax];
    auto step = [&]() {
        members.push_back(cur);
        user = cur;
    };
    // The operand of `n` that carries the scores (a MatMul, or a Mul/Div of the scale), and the other one.
    auto otherOperand = [&](const Node& n, std::size_t* chain, std::size_t* other) {
        auto carries = [&](std::size_t p) {
            const Node& x = v.node(p);
            return x.op.kind == OpKind::MatMul
                   || (x.op.kind == OpKind::Binary && (x.op.subOp() == "Mul" || x.op.subOp() == "Div"));
        };
        const std::size_t x = v.pos(n.inputs[0]), y = v.pos(n.inputs[1]);
        const bool xChain =
            carries(x) && v.dims[x] == v.dims[softmax] && !(n.op.subOp() == "Mul" && scalarConstant(v, x, type));
        *chain = xChain ? x : y;
        *other = xChain ? y : x;
    };
    if (!keeps(cur, user))
        return group;
    if (const Node& n = v.node(cur); n.op.kind == OpKind::Binary && n.op.subOp() == "Add" && n.inputs.size() == 2) {
        std::size_t chain = 0, mask = 0;
        otherOperand(n, &chain, &mask);
        if (!v.dims[mask] || v.dtype(mask) != type || !broadcastsInto(*v.dims[mask], scores))
            return group;
        group.attention.mask = mask;
        step();
        cur = chain;
        if (!keeps(cur, user))
            return group;
    }
    if (const Node& n = v.node(cur);
        n.op.kind == OpKind::Binary && (n.op.subOp() == "Mul" || n.op.subOp() == "Div") && n.inputs.size() == 2) {
        std::size_t chain = 0, scalar = 0;
        otherOperand(n, &chain, &scalar);
        const auto value = scalarConstant(v, scalar, type);
        if (!value || (n.op.subOp() == "Div" && (chain != v.pos(n.inputs[0]) || *value == 0)))
            return group;
        group.attention.scale = n.op.subOp() == "Mul" ? *value : 1.0 / *value;
        step();
        cur = chain;
        if (!keeps(cur, user))
            return group;
    }
    const Node& mm1 = v.node(cur);
    if (mm1.op.kind != OpKind::MatMul || mm1.inputs.size() != 2 || *v.dims[cur] != scores)
        return group;
    step();
    const std::size_t qOp = v.pos(mm1.inputs[0]), kT = v.pos(mm1.inputs[1]);
    if (!v.dims[qOp] || !v.dims[kT] || !v.dims[vOp] || v.dims[qOp]->size() != scores.size()
        || v.dims[vOp]->size() != scores.size() || *v.dims[p2] != *v.dims[qOp])
        return group;
    // Heads interleaved: q and v Transposed [0,2,1,3], k [0,2,3,1], the result Transposed back [0,2,1,3].
    const Dims swapSH = {0, 2, 1, 3}, kToKT = {0, 2, 3, 1};
    const bool interleaved = rank == 4 && isTranspose(v, qOp, swapSH) && isTranspose(v, kT, kToKT)
                             && isTranspose(v, vOp, swapSH) && keeps(qOp, cur) && keeps(kT, cur) && keeps(vOp, p2)
                             && !v.output[p2] && v.consumers[p2].size() == 1
                             && isTranspose(v, v.consumers[p2].front(), swapSH) && groupOf[v.consumers[p2].front()] < 0;
    if (interleaved) {
        for (std::size_t t : {qOp, kT, vOp})
            members.push_back(t);
        members.push_back(v.consumers[p2].front());
        group.attention.q = v.pos(v.node(qOp).inputs[0]);
        group.attention.k = v.pos(v.node(kT).inputs[0]);
        group.attention.v = v.pos(v.node(vOp).inputs[0]);
        group.attention.heads = (*v.dims[qOp])[1];
    } else {
        // One head per batch entry: k^T is a Transpose of the last two dims that only this MatMul reads.
        Dims swapLast(static_cast<std::size_t>(rank));
        for (std::int64_t d = 0; d < rank; ++d)
            swapLast[std::size_t(d)] = d;
        std::swap(swapLast[std::size_t(rank - 2)], swapLast[std::size_t(rank - 1)]);
        if (!isTranspose(v, kT, swapLast) || !keeps(kT, cur))
            return group;
        members.push_back(kT);
        group.attention.q = qOp;
        group.attention.k = v.pos(v.node(kT).inputs[0]);
        group.attention.v = vOp;
        group.attention.heads = 1;
    }
    for (std::size_t t : {group.attention.q, group.attention.k, group.attention.v})
        if (!v.dims[t] || v.dtype(t) != type)
            return group;
    group.members = std::move(members);
    return group;
}

void addGroup(FusionPlan& plan, const View& v, FusionGroup group)
{
    std::sort(group.members.begin(), group.members.end(),
              [&](std::size_t x, std::size_t y) { return v.rank[x] < v.rank[y]; });
    for (std::size_t m : group.members)
        plan.groupOf[m] = static_cast<int>(plan.groups.size());
    plan.groups.push_back(std::move(group));
}
} // namespace

bool isEpilogueActivation(const std::string& name)
{
    return name == "Relu" || name == "GeluApprox";
}

bool isFusableBinary(const std::string& subOp)
{
    static const std::set<std::string> ops = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min"};
    return ops.count(subOp) != 0;
}

bool isFusableActivation(const std::string& name)
{
    static const std::set<std::string> ops = {
        "Relu", "Sigmoid", "Tanh",       "Exp",      "Log",        "Sqrt",  "Rsqrt", "Neg",    "Abs",
        "Erf",  "Sign",    "Softplus",   "Softsign", "Reciprocal", "Floor", "Ceil",  "Round",  "Sin",
        "Cos",  "Gelu",    "GeluApprox", "Silu",     "LeakyRelu",  "Elu",   "Selu",  "Shrink", "HardSigmoid"};
    return ops.count(name) != 0;
}

std::string fusionGroupName(const Graph& g, const FusionGroup& group)
{
    std::string name;
    for (std::size_t m : group.members)
        name += (name.empty() ? "" : "+") + g.nodes[m].op.label();
    return name;
}

FusionPlan planFusion(const Graph& g, const Bindings& bindings, const FusionOptions& options)
{
    FusionPlan plan;
    plan.groupOf.assign(g.nodes.size(), -1);
    const View v = makeView(g, bindings, options.sixteenBit);
    if (v.order.size() != g.nodes.size())
        return plan;
    // Attention first: its scale and mask would otherwise join element-wise groups.
    if (options.attention)
        for (std::size_t p : v.order)
            if (plan.groupOf[p] < 0)
                if (FusionGroup group = growAttention(v, p, plan.groupOf); !group.members.empty())
                    addGroup(plan, v, std::move(group));
    if (options.gemmEpilogue)
        for (std::size_t p : v.order)
            if (plan.groupOf[p] < 0)
                if (FusionGroup group = growGemmEpilogue(v, p, plan.groupOf); !group.members.empty())
                    addGroup(plan, v, std::move(group));
    if (options.elementWise)
        for (auto it = v.order.rbegin(); it != v.order.rend(); ++it)
            if (plan.groupOf[*it] < 0 && isElementWise(v, *it))
                if (auto members = growElementWise(v, *it, plan.groupOf, options); members.size() > 1)
                    addGroup(plan, v, {FusionGroup::Kind::ElementWise, std::move(members), {}, {}, {}, {}});
    return plan;
}

} // namespace costscope
