// SPDX-License-Identifier: MIT
#include "cuda/cudnn_sdpa_config.h"

#include <cstdlib>
#include <cstring>

namespace costscope::cuda {

namespace {
std::string dimsText(const SdpaConfig::Dims4& d)
{
    return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + "," + std::to_string(d[3]);
}
} // namespace

std::string SdpaConfig::key() const
{
    return std::string(bf16 ? "bf16" : "fp16") + " b" + std::to_string(batch) + " h" + std::to_string(heads) + "/"
           + std::to_string(kvHeads) + " s" + std::to_string(sq) + "x" + std::to_string(sk) + " d"
           + std::to_string(headDim) + " q(" + dimsText(qStrides) + ") kv(" + dimsText(kvStrides) + ") o("
           + dimsText(oStrides) + ")" + (causal ? " causal" : "")
           + (window > 0 ? " window" + std::to_string(window) : "")
           + (bias ? " bias(" + dimsText(biasDims) + "/" + dimsText(biasStrides) + ")" : "") + " scale"
           + std::to_string(scale);
}

Result<SdpaConfig> sdpaConfigFor(const AttentionArgs& a)
{
    if (a.storage != ElemType::F16 && a.storage != ElemType::BF16)
        return Diagnostic::error("F32 storage (cuDNN's SDPA takes fp16/bf16)");
    if (a.softcap > 0.0f)
        return Diagnostic::error("logit soft cap");
    if (a.mask == MaskKind::Input && a.maskIsBool)
        return Diagnostic::error("Bool mask");
    if (a.mask == MaskKind::Input && a.maskStorage != a.storage)
        return Diagnostic::error("mask type differs from q's");
    if (a.headDim < 8 || a.headDim > 256 || a.headDim % 8 != 0)
        return Diagnostic::error("head_dim " + std::to_string(a.headDim) + " (cuDNN: a multiple of 8 up to 256)");
    if (a.batch <= 0 || a.heads <= 0 || a.sq <= 0 || a.sk <= 0)
        return Diagnostic::error("empty problem");
    if (a.kvGroup <= 0 || a.heads % a.kvGroup != 0)
        return Diagnostic::error("KV group " + std::to_string(a.kvGroup) + " does not divide the heads");
    const bool banded = a.mask == MaskKind::Causal || a.mask == MaskKind::Window;
    // Rows that see no key: our kernels and cuDNN's give them different values (and cuDNN refuses a window there).
    if (banded && a.sq > a.sk)
        return Diagnostic::error("causal with more queries than keys");
    if (a.mask == MaskKind::Window && a.window <= 0)
        return Diagnostic::error("window " + std::to_string(a.window));
    SdpaConfig c;
    c.bf16 = a.storage == ElemType::BF16;
    c.batch = a.batch;
    c.heads = a.heads;
    c.kvHeads = a.heads / a.kvGroup;
    c.sq = a.sq;
    c.sk = a.sk;
    c.headDim = a.headDim;
    c.qStrides = {a.qStrides[0], a.qStrides[1], a.qStrides[2], 1};
    c.kvStrides = {a.kvStrides[0], a.kvStrides[1], a.kvStrides[2], 1};
    c.oStrides = {a.oStrides[0], a.oStrides[1], a.oStrides[2], 1};
    c.causal = banded;
    c.window = a.mask == MaskKind::Window ? a.window : 0;
    if (a.mask == MaskKind::Input) {
        c.bias = true;
        const std::int64_t extents[4] = {a.batch, a.heads, a.sq, a.sk};
        // A broadcast dim has extent 1, and the stride a dense layout would give it (cuDNN checks strides >= 1).
        for (std::size_t d = 4; d-- > 0;) {
            const bool broadcast = a.maskStrides[d] == 0 || extents[d] == 1;
            c.biasDims[d] = broadcast ? 1 : extents[d];
            c.biasStrides[d] = !broadcast ? a.maskStrides[d] : d == 3 ? 1 : c.biasStrides[d + 1] * c.biasDims[d + 1];
        }
        // cuDNN reads the bias's rows with unit stride along the keys.
        if (c.biasDims[3] != 1 && c.biasStrides[3] != 1)
            return Diagnostic::error("mask not contiguous along the keys");
    }
    c.scale = a.scale;
    return c;
}

bool cudnnRequested()
{
    const char* env = std::getenv("COSTSCOPE_CUDNN");
    return !env || (std::strcmp(env, "off") != 0 && std::strcmp(env, "0") != 0);
}

} // namespace costscope::cuda
