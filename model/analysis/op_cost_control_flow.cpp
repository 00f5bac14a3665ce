// SPDX-License-Identifier: MIT
// Costing of If, Loop and Scan (Node::subgraphs): the work of the body's nodes, each at the rate of its own kind (a
// GEMM in a loop body is priced as a GEMM), times the number of times the body runs.
#include "analysis/op_cost_detail.h"

#include <algorithm>

namespace costscope::opcost {

namespace {
struct BodyWork {
    double flops = 0;
    std::uint64_t bytes = 0;
    std::vector<FusedMemberWork> members;
    std::string skipped; // why a node of the body cannot be costed ("" when every one can)
};

BodyWork bodyWork(const Graph& g, const Bindings& b)
{
    BodyWork body;
    for (const Node& n : g.nodes) {
        if (n.op.info().opClass == OpClass::Leaf)
            continue;
        InputShapes shapes;
        for (NodeId in : n.inputs) {
            const Node* src = g.find(in);
            shapes.push_back(src ? &src->shape : nullptr);
        }
        OpWork w = opWork(n, shapes, b);
        if (w.skipped) {
            body.skipped = "its " + g.name + " node " + std::to_string(n.id) + " (" + n.op.label() + "): " + w.note;
            return body;
        }
        if (w.free)
            continue;
        body.flops += w.flops;
        body.bytes += w.bytes;
        body.members.push_back({n.op, std::move(w), 1});
    }
    return body;
}

OpWork fromBody(BodyWork body, double runs, std::string note)
{
    OpWork w;
    w.flops = body.flops * runs;
    w.bytes = static_cast<std::uint64_t>(static_cast<double>(body.bytes) * runs);
    // Priced member by member, each at its own kind's rate, as a fused node's members are.
    auto parts = std::make_shared<FusedWork>();
    for (FusedMemberWork& m : body.members) {
        m.repeat = runs;
        parts->members.push_back(std::move(m));
    }
    w.fused = std::move(parts);
    w.note = std::move(note);
    return w;
}

const Subgraph* find(const Node& n, const std::string& attribute)
{
    for (const Subgraph& s : n.subgraphs)
        if (s.attribute == attribute && s.graph)
            return &s;
    return nullptr;
}
} // namespace

OpWork controlFlow(const Ctx& c)
{
    const Node& n = c.node;
    if (n.op.attrs.intOr("onnx_output", 0) > 0) {
        OpWork w; // the node of output 0 carries the op's work
        w.free = true;
        w.note = "a further output of " + n.op.name + ": its work is counted on the node of output 0";
        return w;
    }
    if (n.op.name == "If") {
        const Subgraph* then = find(n, "then_branch");
        const Subgraph* other = find(n, "else_branch");
        if (!then || !other)
            return skippedWork("If without both branches");
        BodyWork a = bodyWork(*then->graph, c.b), b = bodyWork(*other->graph, c.b);
        if (!a.skipped.empty() || !b.skipped.empty())
            return skippedWork("If: " + (a.skipped.empty() ? b.skipped : a.skipped));
        const bool thenCostlier = a.flops + static_cast<double>(a.bytes) >= b.flops + static_cast<double>(b.bytes);
        return fromBody(thenCostlier ? std::move(a) : std::move(b), 1,
                        std::string("If: costed as its costlier branch (") + (thenCostlier ? "then" : "else")
                            + "); which runs is known only at run time");
    }
    const Subgraph* body = find(n, "body");
    if (!body)
        return skippedWork(n.op.name + " without a body");
    BodyWork work = bodyWork(*body->graph, c.b);
    if (!work.skipped.empty())
        return skippedWork(n.op.name + ": " + work.skipped);
    const std::string size = std::to_string(work.members.size()) + " op(s)";
    if (n.op.name == "Loop") {
        auto trips = n.op.attrs.getInt("trip_count");
        if (!trips || *trips < 0) {
            OpWork w = fromBody(std::move(work), 1, "");
            return skippedWork("Loop: unknown trip count (not a constant in the file): one iteration of its body ("
                               + size + ") is " + std::to_string(static_cast<std::uint64_t>(w.flops)) + " FLOPs, "
                               + std::to_string(w.bytes) + " bytes");
        }
        // A condition input (ONNX slot 1) lets the body end the loop early.
        const auto slots = n.op.attrs.getInts("onnx_input_slots");
        const bool mayStop = slots ? std::find(slots->begin(), slots->end(), 1) != slots->end()
                                   : n.op.attrs.intOr("onnx_formal_inputs", 0) > 1;
        return fromBody(std::move(work), static_cast<double>(*trips),
                        "Loop: its body (" + size + ") times the trip count " + std::to_string(*trips)
                            + (mayStop ? " (at most: its condition may end it sooner)" : ""));
    }
    // Scan: one run per slice of the first scan input along its scan axis.
    const auto scanInputs = n.op.attrs.intOr("num_scan_inputs", 0);
    const auto formal = n.op.attrs.intOr("onnx_formal_inputs", static_cast<std::int64_t>(n.inputs.size()));
    const std::size_t first = static_cast<std::size_t>(formal - scanInputs);
    const auto axes = n.op.attrs.getInts("scan_input_axes").value_or(std::vector<std::int64_t>{0});
    auto length =
        scanInputs > 0 && first < c.in.size() ? c.dim(c.input(first), static_cast<int>(axes.front())) : std::nullopt;
    // Opset 8's Scan runs its body per batch entry too: its scan inputs are [batch, sequence, ...].
    if (length && n.op.attrs.intOr("onnx_scan_batched", 0) != 0) {
        const auto sequence = c.dim(c.input(first), 1);
        length = sequence ? std::optional<std::int64_t>(*length * *sequence) : std::nullopt;
    }
    if (!length)
        return skippedWork("Scan: the length of its scan input is not known (bind its symbols)");
    return fromBody(std::move(work), static_cast<double>(*length),
                    "Scan: its body (" + size + ") once per slice, " + std::to_string(*length) + " times");
}

} // namespace costscope::opcost
