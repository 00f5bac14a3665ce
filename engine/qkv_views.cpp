// SPDX-License-Identifier: MIT
#include "qkv_views.h"

#include <algorithm>
#include <optional>

namespace costscope {

namespace {
using Dims = std::vector<std::int64_t>;

// Ops whose output is their input's elements in the same order (what a backend runs as an alias).
bool isViewOp(OpKind k)
{
    return k == OpKind::Reshape || k == OpKind::Flatten || k == OpKind::Squeeze || k == OpKind::Unsqueeze
           || k == OpKind::Identity;
}

std::optional<Dims> dimsOf(const Node& n, const Bindings& bindings)
{
    Dims d;
    for (const Dim& dim : n.shape.dims) {
        auto r = dim.resolve(bindings);
        if (!r || *r < 0)
            return std::nullopt;
        d.push_back(*r);
    }
    return d;
}

std::int64_t productOf(const Dims& d)
{
    std::int64_t n = 1;
    for (std::int64_t x : d)
        n *= x;
    return n;
}

// Where a slice of x's last dim starts: a Narrow on the last axis, or a one-axis Slice with step 1 on it whose
// starts and ends are attributes; nullopt for anything else.
std::optional<std::int64_t> lastDimSliceStart(const Node& n, const Dims& x, const Dims& out)
{
    if (n.inputs.empty() || x.empty() || x.size() != out.size())
        return std::nullopt;
    const auto rank = std::int64_t(x.size());
    const std::int64_t dim = x.back(), len = out.back();
    auto isLast = [&](std::int64_t axis) { return axis == rank - 1 || axis == -1; };
    std::int64_t start = 0;
    if (n.op.kind == OpKind::Narrow && n.inputs.size() == 1) {
        if (!isLast(n.op.attrs.intOr("axis", 0)))
            return std::nullopt;
        start = n.op.attrs.intOr("start", 0);
    } else if (n.op.kind == OpKind::Slice && n.inputs.size() == 1) {
        const Dims starts = n.op.attrs.intsOr("starts", {}), ends = n.op.attrs.intsOr("ends", {});
        const Dims axes = n.op.attrs.intsOr("axes", {rank - 1}), steps = n.op.attrs.intsOr("steps", {1});
        if (starts.size() != 1 || ends.size() != 1 || axes.size() != 1 || !isLast(axes[0]) || steps != Dims{1})
            return std::nullopt;
        start = starts[0] < 0 ? starts[0] + dim : starts[0];
        start = std::clamp<std::int64_t>(start, 0, dim);
    } else {
        return std::nullopt;
    }
    for (std::size_t d = 0; d + 1 < x.size(); ++d)
        if (x[d] != out[d])
            return std::nullopt;
    if (start < 0 || len <= 0 || start + len > dim)
        return std::nullopt;
    return start;
}

struct Traced {
    std::size_t base = 0;
    std::int64_t rowStride = 0, offset = 0;
    std::vector<std::size_t> chain; // slice first, the operand last
};

// The slice of a last dim behind operand `p` of an attention group (p itself, or view ops back to the slice), whose
// rows are p's rows: p's head dims (`rowDims` trailing dims) multiply to the slice's width.
std::optional<Traced> trace(const Graph& g, const std::vector<std::optional<Dims>>& dims, std::size_t p,
                            std::size_t rowDims)
{
    Traced t;
    std::size_t cur = p;
    while (isViewOp(g.nodes[cur].op.kind) && g.nodes[cur].inputs.size() >= 1) {
        t.chain.push_back(cur);
        cur = *g.indexOf(g.nodes[cur].inputs[0]);
    }
    t.chain.push_back(cur);
    std::reverse(t.chain.begin(), t.chain.end());
    const Node& slice = g.nodes[cur];
    if (slice.inputs.empty())
        return std::nullopt;
    t.base = *g.indexOf(slice.inputs[0]);
    const auto &x = dims[t.base], &out = dims[cur], &operand = dims[p];
    if (!x || !out || !operand || operand->size() < rowDims || slice.shape.dtype != g.nodes[t.base].shape.dtype)
        return std::nullopt;
    const auto start = lastDimSliceStart(slice, *x, *out);
    if (!start)
        return std::nullopt;
    const Dims head(operand->end() - std::ptrdiff_t(rowDims), operand->end());
    if (productOf(head) != out->back() || productOf(*operand) != productOf(*out))
        return std::nullopt;
    t.rowStride = x->back();
    t.offset = *start;
    return t;
}

// Nothing but the chain's next node reads each of its nodes, and only the group's members read its last one.
bool readInPlaceOnly(const Graph& g, const std::vector<std::vector<std::size_t>>& consumers,
                     const std::vector<std::size_t>& chain, const FusionGroup& group)
{
    for (std::size_t i = 0; i < chain.size(); ++i) {
        if (g.isOutput(g.nodes[chain[i]].id) || consumers[chain[i]].empty())
            return false;
        for (std::size_t c : consumers[chain[i]]) {
            const bool ok = i + 1 < chain.size()
                                ? c == chain[i + 1]
                                : std::find(group.members.begin(), group.members.end(), c) != group.members.end();
            if (!ok)
                return false;
        }
    }
    return true;
}
} // namespace

QkvViewPlan planQkvViews(const Graph& g, const Bindings& bindings, const FusionPlan& fusion,
                         const std::vector<DType>& types)
{
    QkvViewPlan plan;
    plan.viewOf.assign(fusion.groups.size(), -1);
    plan.skipped.assign(g.nodes.size(), false);
    std::vector<std::optional<Dims>> dims;
    for (const Node& n : g.nodes)
        dims.push_back(dimsOf(n, bindings));
    const auto consumers = g.consumers();
    for (std::size_t gi = 0; gi < fusion.groups.size(); ++gi) {
        const FusionGroup& group = fusion.groups[gi];
        const AttentionOperands& op = group.attention;
        if (group.kind != FusionGroup::Kind::Attention
            || (!types.empty() && std::find(types.begin(), types.end(), g.nodes[op.q].shape.dtype) == types.end()))
            continue;
        // Heads interleaved ([batch, seq, heads, head_dim]): a row is a token's heads; else a row is one head's.
        const std::size_t rowDims = op.heads > 1 ? 2 : 1;
        QkvView view;
        view.group = gi;
        bool ok = true;
        const std::size_t operands[3] = {op.q, op.k, op.v};
        for (std::size_t i = 0; i < 3 && ok; ++i) {
            auto t = trace(g, dims, operands[i], rowDims);
            ok = t && (i == 0 || (t->base == view.base && t->rowStride == view.rowStride));
            if (!ok)
                break;
            view.base = t->base;
            view.rowStride = t->rowStride;
            view.offset[i] = t->offset;
            view.chain[i] = std::move(t->chain);
        }
        if (!ok)
            continue;
        plan.viewOf[gi] = static_cast<int>(plan.views.size());
        plan.views.push_back(std::move(view));
    }
    // A slice is skipped when every reader of it (through its view ops) is a group reading it in place. q, k and v
    // of one group may share a slice (self-attention of q with itself).
    for (const bool skip : {true, false}) // then a slice that any chain keeps (another reader) stays
        for (const QkvView& view : plan.views)
            for (const auto& chain : view.chain)
                if (readInPlaceOnly(g, consumers, chain, fusion.groups[view.group]) == skip)
                    plan.skipped[chain.front()] = skip;
    return plan;
}

} // namespace costscope
