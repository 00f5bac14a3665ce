// SPDX-License-Identifier: MIT
#include "analysis/fused_kernel.h"

#include "analysis/io_bytes.h"
#include "formats/rlx_json.h"
#include "ir/fused_op.h"

#include <nlohmann/json.hpp>

namespace costscope {

namespace {
bool gemmLike(OpClass c)
{
    return c == OpClass::MatMul || c == OpClass::Conv || c == OpClass::Attention;
}

std::string formOf(OpClass c, int gemms)
{
    switch (c) {
    case OpClass::MatMul: return gemms > 1 ? std::to_string(gemms) + " GEMMs with epilogue" : "GEMM with epilogue";
    case OpClass::Conv: return "convolution with epilogue";
    case OpClass::Attention: return "attention with epilogue";
    case OpClass::ElementWise: return "element-wise chain";
    default: return std::string(opClassName(c)) + " with element-wise ops";
    }
}
} // namespace

Result<FusedKernel> fusedKernel(const Op& op)
{
    if (!isFusedOp(op))
        return Diagnostic::error("not a fused op: " + op.label());
    const auto payload = nlohmann::json::parse(op.unknownPayload, nullptr, false);
    if (payload.is_discarded() || !payload.is_object() || !payload.contains("members"))
        return Diagnostic::error("fused node without its members");
    auto members = parseRlxJson(payload["members"].dump());
    if (!members)
        return Diagnostic::error("fused node's members do not load: " + members.error().message);

    FusedKernel k;
    k.members = std::move(*members);
    std::optional<OpClass> gemm, other;
    int gemms = 0;
    for (const Node& m : k.members.nodes) {
        const OpClass c = m.op.info().opClass;
        k.hostSync = k.hostSync || isRlxHostSync(m.op);
        if (gemmLike(c)) {
            gemms += c == OpClass::MatMul ? 1 : 0;
            gemm = gemm.value_or(c);
        } else if (c != OpClass::Leaf && c != OpClass::ElementWise && c != OpClass::Layout) {
            other = other.value_or(c);
        }
    }
    k.opClass = gemm.value_or(other.value_or(OpClass::ElementWise));
    k.form = formOf(k.opClass, gemms);
    return k;
}

} // namespace costscope
