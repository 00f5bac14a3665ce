// SPDX-License-Identifier: MIT
// Fusion groups (engine/fusion_plan.h) as one launch each: element-wise groups as one fused_elementwise program,
// GEMM epilogues as one cuBLASLt matmul with its bias and activation epilogue and the residual as C (beta = 1),
// attention patterns as one attention kernel (cuDNN's SDPA where it takes the problem, else ours).
#include "cuda/cuda_gemm.h"
#include "cuda/fused_kernels.h"
#include "cuda/fused_nvrtc.h"
#include "cuda/lt_autotune.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace costscope::cuda {

namespace {
std::size_t positionOf(const Graph& g, NodeId id)
{
    return *g.indexOf(id);
}

// The output dims with size-1 dims dropped and neighbours that every input walks alike merged (most groups become
// one or two dims), and each input's strides over them.
void collapseDims(const Dims& out, const std::vector<Dims>& strides, FusedElementwiseArgs& args)
{
    std::vector<Dims> st(strides.size());
    Dims dims;
    for (std::size_t d = 0; d < out.size(); ++d) {
        if (out[d] == 1)
            continue;
        bool merge = !dims.empty();
        for (std::size_t k = 0; k < strides.size() && merge; ++k)
            merge = st[k].back() == strides[k][d] * out[d];
        if (merge) {
            dims.back() *= out[d];
            for (std::size_t k = 0; k < strides.size(); ++k)
                st[k].back() = strides[k][d];
            continue;
        }
        dims.push_back(out[d]);
        for (std::size_t k = 0; k < strides.size(); ++k)
            st[k].push_back(strides[k][d]);
    }
    args.rank = static_cast<int>(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
        args.dims[d] = dims[d];
        for (std::size_t k = 0; k < strides.size(); ++k)
            args.strides[k][d] = st[k][d];
    }
    args.count = product(out);
}

Result<FusedOp> fusedOp(const Node& n, const std::map<std::size_t, int>& reg, const Graph& g)
{
    FusedOp op;
    op.a = static_cast<std::uint8_t>(reg.at(positionOf(g, n.inputs[0])));
    const std::string sub = n.op.subOp();
    switch (n.op.kind) {
    case OpKind::Binary:
        if (auto b = binaryOpFor(sub); b && n.inputs.size() == 2) {
            op.isBinary = true;
            op.binary = *b;
            op.b = static_cast<std::uint8_t>(reg.at(positionOf(g, n.inputs[1])));
            return op;
        }
        break;
    case OpKind::Activation:
        if (auto act = activationFor(sub, n.op.attrs)) {
            op.act = *act;
            return op;
        }
        break;
    case OpKind::Cast:
        return op; // to F32 as the input is read; the op itself is the identity
    default:
        break;
    }
    return lowerError("the fused kernel has no op " + n.op.label());
}

LowerResult lowerElementWiseGroup(CudaPlan& plan, const FusionGroup& group, std::string* label)
{
    const Graph& g = plan.graph();
    const std::vector<DeviceValue>& values = plan.values();
    const std::set<std::size_t> members(group.members.begin(), group.members.end());
    std::vector<std::size_t> leaves;
    for (std::size_t m : group.members)
        for (NodeId id : g.nodes[m].inputs) {
            const std::size_t p = positionOf(g, id);
            if (!members.count(p) && std::find(leaves.begin(), leaves.end(), p) == leaves.end())
                leaves.push_back(p);
        }
    std::vector<const DeviceValue*> inputs;
    std::map<std::size_t, int> reg;
    for (std::size_t k = 0; k < leaves.size(); ++k) {
        inputs.push_back(&values[leaves[k]]);
        reg[leaves[k]] = static_cast<int>(k);
    }
    std::vector<FusedOp> code;
    for (std::size_t j = 0; j < group.members.size(); ++j) {
        auto op = fusedOp(g.nodes[group.members[j]], reg, g);
        if (!op)
            return op.error();
        code.push_back(*op);
        reg[group.members[j]] = static_cast<int>(leaves.size() + j);
    }
    return elementwiseProgram(inputs, code, values[group.exit()], fusionGroupName(g, group), label);
}

cublasLtEpilogue_t epilogueFor(bool bias, const std::string& activation)
{
    if (activation == "Relu")
        return bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    if (activation == "GeluApprox")
        return bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
    return bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
}

// The operands of D^T[n,m] = W^T[n,k] A^T[k,m] (+ beta C).
struct LtPointers {
    const void *w = nullptr, *a = nullptr, *c = nullptr;
    void* d = nullptr;
    float beta = 0;
};

// The matmul D^T[n,m] = W^T[n,k] A^T[k,m] (+ C) with `epilogue`, its algorithm chosen (the fastest of cuBLASLt's
// candidates, timed on the operands: lt_autotune.h); null when cuBLASLt has none.
std::shared_ptr<LtMatmul> setUpLtMatmul(CudaPlan& plan, std::int64_t m, std::int64_t n, std::int64_t k,
                                        const void* bias, cublasLtEpilogue_t epilogue, const LtPointers& p,
                                        cudaDataType_t type)
{
    auto lt = std::make_shared<LtMatmul>();
    const std::uint64_t workspace = plan.libraryWorkspaceBytes();
    std::vector<cublasLtMatmulHeuristicResult_t> found(static_cast<std::size_t>(ltCandidateCount()));
    int count = 0;
    const auto un = std::uint64_t(n), um = std::uint64_t(m), uk = std::uint64_t(k);
    bool ok = cublasLtMatmulDescCreate(&lt->desc, computeTypeFor(plan.options().precision, type), CUDA_R_32F)
                  == CUBLAS_STATUS_SUCCESS
              && cublasLtMatmulDescSetAttribute(lt->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue)
                     == CUBLAS_STATUS_SUCCESS
              && cublasLtMatrixLayoutCreate(&lt->a, type, un, uk, n) == CUBLAS_STATUS_SUCCESS
              && cublasLtMatrixLayoutCreate(&lt->b, type, uk, um, k) == CUBLAS_STATUS_SUCCESS
              && cublasLtMatrixLayoutCreate(&lt->c, type, un, um, n) == CUBLAS_STATUS_SUCCESS
              && cublasLtMatmulPreferenceCreate(&lt->preference) == CUBLAS_STATUS_SUCCESS
              && cublasLtMatmulPreferenceSetAttribute(lt->preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                      &workspace, sizeof workspace)
                     == CUBLAS_STATUS_SUCCESS;
    if (ok && bias)
        ok = cublasLtMatmulDescSetAttribute(lt->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias)
             == CUBLAS_STATUS_SUCCESS;
    if (ok)
        ok = cublasLtMatmulAlgoGetHeuristic(plan.cublasLt(), lt->desc, lt->a, lt->b, lt->c, lt->c, lt->preference,
                                            int(found.size()), found.data(), &count)
                 == CUBLAS_STATUS_SUCCESS
             && count > 0;
    if (!ok)
        return nullptr;
    const LtOperands op{plan.cublasLt(),         lt->desc, lt->a, lt->b, lt->c, p.w, p.a, p.c ? p.c : p.d, p.d, p.beta,
                        plan.libraryWorkspace(), workspace};
    lt->algo = found[std::size_t(fastestLtCandidate(op, found.data(), count, plan.stream()))].algo;
    return lt;
}

LowerResult lowerGemmEpilogue(CudaPlan& plan, const FusionGroup& group, std::string* label)
{
    const Graph& g = plan.graph();
    const std::vector<DeviceValue>& values = plan.values();
    const Node& root = g.nodes[group.members.front()];
    const DeviceValue& a = values[positionOf(g, root.inputs[0])];
    const DeviceValue& w = values[positionOf(g, root.inputs[1])];
    const DeviceValue& d = values[group.exit()];
    // One storage type for A, W, D, the bias and the residual: F32, or F16/BF16 with F32 accumulation (cuBLASLt's
    // bias then has D's type, its default).
    const auto type = gemmStorageType(d.dtype);
    if (!type || a.dtype != d.dtype || w.dtype != d.dtype)
        return lowerError("GEMM epilogue operands " + valueString(a) + ", " + valueString(w) + " and " + valueString(d)
                          + " must share one of F32, F16, BF16");
    if (a.dims.size() < 2 || w.dims.size() != 2 || d.dims.empty())
        return lowerError("GEMM epilogue: " + valueString(a) + " x " + valueString(w) + " is no linear layer");
    const std::int64_t k = a.dims.back(), n = w.dims[1];
    const std::int64_t m = product(a.dims, 0, a.dims.size() - 1);
    if (k == 0 || w.dims[0] != k || d.dims.back() != n || product(d.dims) != m * n)
        return lowerError("GEMM epilogue: " + valueString(a) + " x " + valueString(w) + " is not " + valueString(d));
    const void* bias = nullptr;
    if (group.bias) {
        const DeviceValue& b = values[*group.bias];
        if (b.dtype != d.dtype || std::int64_t(b.elements()) != n)
            return lowerError("GEMM epilogue: bias " + valueString(b) + " must hold " + std::to_string(n) + " "
                              + std::string(dtypeName(d.dtype)) + " values");
        bias = b.ptr;
    }
    const void* residual = nullptr;
    if (group.residual) {
        const DeviceValue& r = values[*group.residual];
        if (r.dtype != d.dtype || r.dims != d.dims)
            return lowerError("GEMM epilogue: residual " + valueString(r) + " must be " + valueString(d));
        residual = r.ptr;
    }
    // Row-major D[m,n] = A[m,k] W[k,n] is the column-major D^T[n,m] = W^T[n,k] A^T[k,m]: W is cuBLASLt's A and the
    // bias runs along D^T's rows. cuBLASLt may have no algorithm with the activation in its epilogue (fp32 GELU on
    // some versions): the activation then runs as a second pass in place, in the same launch.
    const LtPointers operands{w.ptr, a.ptr, residual, d.ptr, residual ? 1.0f : 0.0f};
    std::shared_ptr<LtMatmul> lt =
        setUpLtMatmul(plan, m, n, k, bias, epilogueFor(bias != nullptr, group.activation), operands, *type);
    ActArgs separate;
    // The separate activation pass reads and writes F32: a 16-bit group without cuBLASLt's epilogue runs node by node.
    if (!lt && !group.activation.empty() && d.dtype == DType::F32) {
        lt = setUpLtMatmul(plan, m, n, k, bias, epilogueFor(bias != nullptr, ""), operands, *type);
        if (auto act = activationFor(group.activation, {}))
            separate = *act;
        else
            lt.reset();
    }
    if (!lt)
        return lowerError("cuBLASLt has no algorithm for " + valueString(a) + " x " + valueString(w));
    const float alpha = 1.0f, beta = residual ? 1.0f : 0.0f;
    const void *pa = a.ptr, *pw = w.ptr;
    void* pd = d.ptr;
    const void* pc = residual ? residual : pd;
    cublasLtHandle_t handle = plan.cublasLt();
    void* ws = plan.libraryWorkspace();
    const std::uint64_t workspace = plan.libraryWorkspaceBytes();
    const std::int64_t count = m * n;
    *label = "cublasLt[" + gemmModeName(plan.options().precision, d.dtype) + "]"
             + (separate.op == ActOp::None ? "" : "+" + group.activation) + "(" + fusionGroupName(g, group) + ")";
    return Launch([=](cudaStream_t s) {
        cublasLtMatmul(handle, lt->desc, &alpha, pw, lt->a, pa, lt->b, &beta, pc, lt->c, pd, lt->c, &lt->algo, ws,
                       workspace, s);
        if (separate.op != ActOp::None)
            launchActivation(static_cast<float*>(pd), static_cast<float*>(pd), count, separate, s);
    });
}
// The attention pattern (engine/fusion_plan.h) as one launch of an attention kernel (attentionLaunch), reading q, k
// and v as [batch, seq, heads * head_dim] and writing the result so; with a `view`, q, k and v in place from the
// view's base (rows of its last dim), the output dense as before.
LowerResult lowerAttentionGroup(CudaPlan& plan, const FusionGroup& group, std::string* label, const QkvView* view)
{
    const Graph& g = plan.graph();
    const std::vector<DeviceValue>& values = plan.values();
    const AttentionOperands& op = group.attention;
    const DeviceValue &q = values[op.q], &k = values[op.k], &v = values[op.v], &out = values[group.exit()];
    // One storage type for q, k, v, the result and an additive mask: F32, or F16/BF16 (the flash and tiled kernels
    // load it to float and store the result rounded).
    const auto storage = programTypeOf(q.dtype);
    const bool floatStorage =
        storage && (*storage == ElemType::F32 || *storage == ElemType::F16 || *storage == ElemType::BF16);
    if (!floatStorage || k.dtype != q.dtype || v.dtype != q.dtype || out.dtype != q.dtype)
        return lowerError("attention: q " + valueString(q) + ", k " + valueString(k) + ", v " + valueString(v)
                          + " and the result " + valueString(out) + " must share one of F32, F16, BF16");
    AttentionArgs a;
    a.storage = *storage;
    const std::size_t rank = q.dims.size();
    if (rank < 3 || k.dims.size() != rank || v.dims != k.dims || out.dims != q.dims)
        return lowerError("attention: q " + valueString(q) + ", k " + valueString(k) + ", v " + valueString(v)
                          + " and the result " + valueString(out) + " do not agree");
    if (op.heads > 1) { // [batch, seq, heads, head_dim]
        if (rank != 4 || q.dims[2] != op.heads || k.dims[2] != op.heads || q.dims[0] != k.dims[0]
            || q.dims[3] != k.dims[3])
            return lowerError("attention: q " + valueString(q) + " and k " + valueString(k) + " are not [batch, seq, "
                              + std::to_string(op.heads) + ", head_dim]");
        a.batch = q.dims[0];
        a.sq = q.dims[1];
        a.sk = k.dims[1];
    } else { // [..., seq, head_dim]
        if (product(q.dims, 0, rank - 2) != product(k.dims, 0, rank - 2) || q.dims.back() != k.dims.back())
            return lowerError("attention: q " + valueString(q) + " and k " + valueString(k) + " do not agree");
        a.batch = product(q.dims, 0, rank - 2);
        a.sq = q.dims[rank - 2];
        a.sk = k.dims[rank - 2];
    }
    a.heads = op.heads;
    a.headDim = q.dims.back();
    if (!attentionSupportsHeadDim(a.headDim, a.storage))
        return lowerError("attention: head_dim " + std::to_string(a.headDim) + " is beyond the kernel's");
    // Element strides (batch, head, row) as the kernel reads them (cuda_kernels.h): heads packed in the last dim of
    // [batch, seq, heads, head_dim], or one head per flattened batch of [..., seq, head_dim]; no grouped KV heads.
    const std::int64_t heads = std::max<std::int64_t>(a.heads, 1);
    a.qStrides[0] = a.sq * heads * a.headDim;
    a.qStrides[1] = a.headDim;
    a.qStrides[2] = heads * a.headDim;
    a.kvStrides[0] = a.sk * heads * a.headDim;
    a.kvStrides[1] = a.headDim;
    a.kvStrides[2] = heads * a.headDim;
    std::copy(a.qStrides, a.qStrides + 3, a.oStrides);
    a.kvGroup = 1;
    if (op.mask) {
        const DeviceValue& m = values[*op.mask];
        auto strides = broadcastStrides(m.dims, {a.batch, a.heads, a.sq, a.sk});
        if (!strides || m.dtype != q.dtype)
            return lowerError("attention: mask " + valueString(m) + " must be " + std::string(dtypeName(q.dtype))
                              + " broadcasting to the kernel's scores");
        for (std::size_t d = 0; d < 4; ++d)
            a.maskStrides[d] = (*strides)[d];
        a.mask = MaskKind::Input;
        a.maskData = m.ptr;
        a.maskStorage = a.storage;
    }
    a.scale = static_cast<float>(op.scale);
    a.q = static_cast<const float*>(q.ptr);
    a.k = static_cast<const float*>(k.ptr);
    a.v = static_cast<const float*>(v.ptr);
    a.out = static_cast<float*>(out.ptr);
    std::string kernel;
    if (view) {
        const DeviceValue& base = values[view->base];
        if (!base.ptr || base.dtype != q.dtype)
            return lowerError("attention: q, k and v cannot be read in place from " + valueString(base));
        const std::int64_t row = view->rowStride;
        const auto at = [&](std::size_t i) {
            return reinterpret_cast<const float*>(static_cast<const char*>(base.ptr)
                                                  + view->offset[i] * std::int64_t(byteSize(base.dtype)));
        };
        AttentionArgs inPlace = a;
        inPlace.q = at(0);
        inPlace.k = at(1);
        inPlace.v = at(2);
        inPlace.qStrides[0] = a.sq * row;
        inPlace.qStrides[2] = row;
        inPlace.kvStrides[0] = a.sk * row;
        inPlace.kvStrides[2] = row;
        auto launch = attentionLaunchInPlace(plan, a, inPlace, group.exit(), kernel);
        *label = "attention[" + kernel + "](" + fusionGroupName(g, group) + ")";
        return launch;
    }
    auto launch = attentionLaunch(plan, a, group.exit(), kernel);
    *label = "attention" + (kernel.empty() ? "" : "[" + kernel + "]") + "(" + fusionGroupName(g, group) + ")";
    return launch;
}
} // namespace

LowerResult elementwiseProgram(const std::vector<const DeviceValue*>& inputs, const std::vector<FusedOp>& code,
                               const DeviceValue& out, const std::string& name, std::string* label)
{
    const auto outType = programTypeOf(out.dtype);
    const bool floatOut = outType == ElemType::F32 || outType == ElemType::F16 || outType == ElemType::BF16;
    if (inputs.size() > std::size_t(kMaxFusedInputs) || code.empty() || code.size() > std::size_t(kMaxFusedOps)
        || out.dims.size() > std::size_t(kMaxRank) || !floatOut)
        return lowerError("the program is beyond the fused kernel's limits");
    FusedElementwiseArgs args;
    args.inputs = static_cast<int>(inputs.size());
    std::vector<Dims> strides;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const DeviceValue& v = *inputs[k];
        auto s = broadcastStrides(v.dims, out.dims);
        auto t = programTypeOf(v.dtype);
        if (!s || !t)
            return lowerError("fused input " + valueString(v) + " does not broadcast to " + valueString(out));
        strides.push_back(*s);
        args.in[k] = v.ptr;
        args.inType[k] = *t;
    }
    std::copy(code.begin(), code.end(), args.code);
    args.ops = static_cast<int>(code.size());
    collapseDims(out.dims, strides, args);
    args.out = out.ptr;
    args.outType = *outType;
    // A kernel of its own for the program where NVRTC is there; the interpreted kernel when it is not or when
    // the program does not compile (same values; the kernel's label says which one ran).
    if (nvrtcEnabled())
        if (auto compiled = compileFusedElementwise(args)) {
            if (label)
                *label = "fused_elementwise_nvrtc(" + name + ")";
            return Launch([=, kernel = *compiled](cudaStream_t s) { launchCompiledFused(kernel, args, s); });
        }
    if (label)
        *label = "fused_elementwise(" + name + ")";
    return Launch([=](cudaStream_t s) { launchFusedElementwise(args, s); });
}

bool fusedAttentionRequested()
{
    const char* env = std::getenv("COSTSCOPE_CUDA_FUSED_ATTENTION");
    return !env || std::string(env) != "0";
}

bool qkvViewsRequested()
{
    const char* env = std::getenv("COSTSCOPE_CUDA_QKV_VIEWS");
    return !env || std::string(env) != "0";
}

LowerResult lowerFusionGroup(CudaPlan& plan, const FusionGroup& group, std::string* label, const QkvView* view)
{
    if (group.kind == FusionGroup::Kind::GemmEpilogue)
        return lowerGemmEpilogue(plan, group, label);
    if (group.kind == FusionGroup::Kind::Attention)
        return lowerAttentionGroup(plan, group, label, view);
    return lowerElementWiseGroup(plan, group, label);
}

} // namespace costscope::cuda
