// SPDX-License-Identifier: MIT
#include "cuda/fp8_dispatch.h"

#include "shape_util.h"

namespace costscope::cuda {

namespace {
// MatMul's numpy batching: B shared folds the batch into m; equal batches run strided-batched.
Result<bool> matmulLayout(Fp8GemmLayout& l, const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b)
{
    auto md = matmulDims(a, b, [&](std::size_t i) { return dimsString(i == 0 ? a : b); });
    if (!md)
        return md.error();
    const std::int64_t batches = product(md->batch), aCount = product(md->aBatch), bCount = product(md->bBatch);
    l.gemm.m = md->m;
    l.gemm.n = md->n;
    l.gemm.k = md->k;
    if (bCount == 1 && aCount == batches) {
        l.gemm.m *= batches;
        return true;
    }
    if (aCount != batches || bCount != batches)
        return Diagnostic::error("batch dims " + dimsString(md->aBatch) + " and " + dimsString(md->bBatch)
                                 + " broadcast (only a shared second operand has an FP8 path: it folds into m)");
    l.batch = batches;
    return true;
}
} // namespace

Result<Fp8GemmLayout> fp8GemmLayout(const Node& n, const std::vector<std::int64_t>& a, DType aType,
                                    const std::vector<std::int64_t>& b, DType bType, std::size_t inputCount)
{
    Fp8GemmLayout l;
    l.gemm = Fp8Gemm{n.op.kind, aType, bType, n.shape.dtype};
    if (n.op.kind == OpKind::Gemm) {
        const Attrs& at = n.op.attrs;
        if (a.size() != 2 || b.size() != 2)
            return Diagnostic::error("Gemm operands " + dimsString(a) + " and " + dimsString(b) + " are not matrices");
        l.transA = at.intOr("trans_a", 0) != 0;
        l.copyB = at.intOr("trans_b", 0) == 0;
        l.alpha = static_cast<float>(at.doubleOr("alpha", 1.0));
        l.gemm.m = l.transA ? a[1] : a[0];
        l.gemm.k = l.transA ? a[0] : a[1];
        l.gemm.n = l.copyB ? b[1] : b[0];
        if ((l.copyB ? b[0] : b[1]) != l.gemm.k)
            return Diagnostic::error("Gemm: inner dims of " + dimsString(a) + " and " + dimsString(b) + " differ");
        l.gemm.addsC = inputCount > 2 && at.doubleOr("beta", 1.0) != 0;
    } else if (auto r = matmulLayout(l, a, b); !r) {
        return r.error();
    }
    if (auto why = fp8GemmRefusal(l.gemm))
        return Diagnostic::error(*why);
    return l;
}

std::string fp8GemmName(DType a, DType b, DType out)
{
    return "fp8 " + std::string(dtypeName(a)) + "x" + std::string(dtypeName(b)) + "->" + std::string(dtypeName(out));
}

std::map<NodeId, std::string> fp8GemmFallbacks(const Graph& g, const Bindings& bindings, int capability,
                                               const Fp8LibraryCheck& library)
{
    std::map<NodeId, std::string> out;
    for (const Node& n : g.nodes) {
        if (n.inputs.size() < 2)
            continue;
        const Node* a = g.find(n.inputs[0]);
        const Node* b = g.find(n.inputs[1]);
        if (!a || !b || !isFp8GemmCandidate(n.op.kind, a->shape.dtype, b->shape.dtype))
            continue;
        if (capability < kFp8Capability) {
            out[n.id] = "compute capability " + std::to_string(capability / 10) + "." + std::to_string(capability % 10)
                        + " has no FP8 tensor cores (8.9 and up)";
            continue;
        }
        std::vector<std::int64_t> dims[2];
        std::string unbound;
        for (int i = 0; i < 2; ++i)
            for (const Dim& d : (i == 0 ? a : b)->shape.dims) {
                auto v = d.resolve(bindings);
                if (!v)
                    unbound = d.toString();
                dims[i].push_back(v.value_or(0));
            }
        if (!unbound.empty()) {
            out[n.id] = "dim '" + unbound + "' is not bound";
            continue;
        }
        auto layout = fp8GemmLayout(n, dims[0], a->shape.dtype, dims[1], b->shape.dtype, n.inputs.size());
        if (!layout)
            out[n.id] = layout.error().message;
        else if (auto why = library ? library(*layout) : std::nullopt)
            out[n.id] = *why;
    }
    return out;
}

} // namespace costscope::cuda
