// SPDX-License-Identifier: MIT
#pragma once
// The wave model of a backend's attention kernel (DeviceProfile::attentionWaves), fitted from the kernel sampler's
// attention kernels. Vulkan's attention.comp runs one invocation per (batch, head, query) row that walks every key
// over the head dim three times, all from memory: its time is the row's loop (keys × head dim) times the waves of
// rows the GPU holds at once, flat in batch and heads until the GPU is full, and 100-1000x over the GEMM rate its
// FLOPs would take. Priced at that rate, the kernel predictors had to learn ratios past their clamp (64) and GPT and
// BERT came out 2-8x under. A waves model of the rows is the physical backbone the predictors then correct.
#include "train/family_holdout.h"

#include <string>
#include <vector>

namespace costscope {

// One timed attention kernel: rows = batch·heads·queries, loop = keys · head dim, and its time less the dispatch.
struct AttentionTiming {
    std::int64_t rows = 0, loop = 0;
    double ns = 0;
};

// The waves model of least squared relative error over a few row tiles (32-512 rows a workgroup), with the loop in
// steps of one key·dim; invalid without at least three timings.
TileWaves fitAttentionRowWaves(const std::vector<AttentionTiming>& timings);

struct AttentionWavesFit {
    TileWaves waves; // invalid unless it leaves under half the GEMM rate's spread on the sampler's attention
    int kernels = 0; // sampler attention kernels measured
    // The spread (standard deviation) of ln(predicted / measured) over them: how much of the shapes' variation each
    // leaves to the predictors, a constant ratio aside.
    double wavesError = 0, gemmRateError = 0;
    std::string note; // one line for the report
};

// From the kernel sampler's runs only (family kSamplerFamily): no scored family is ever used, so each held-out split
// can share it. `analytic` is the profile the kernels are priced under (its own attention waves ignored); `launchNs`
// the runs' launch (fitGraphLaunchNs), taken out before the instrumentation overhead as for the predictors.
AttentionWavesFit fitAttentionWaves(const std::vector<EvalRun>& runs, const DeviceProfile& analytic, double launchNs);

} // namespace costscope
