// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/io_profile.h"
#include "ir/graph.h"

#include <cstdint>

namespace costscope {

// Parameters of RLX's Welch-peaks workload (cost-model.md §6).
struct WelchParams {
    std::int64_t nFft = 256;
    std::int64_t k = 16;
    std::int64_t nSegments = 2;

    std::int64_t hop() const { return nFft / 2; }
    static WelchParams fast(std::int64_t nFft, std::int64_t k) { return {nFft, k, 2}; }
    static WelchParams ultraFast(std::int64_t nFft, std::int64_t k) { return {nFft, k, 1}; }
    static WelchParams reference(std::int64_t nFft, std::int64_t k) { return {nFft, k, 8}; }
};

// fused(batch): Input "segs" [batch·segs, n_fft] → Sub(segs, segs) → Concat([segs, zeros], axis 1)
// → Fft (forward) [batch·segs, 2·n_fft] → WelchPeaks{k, n_segments} [batch, 2k], the only output.
Graph welchFusedGraph(std::int64_t batch, const WelchParams& p);
// fft_only(batch): the same without WelchPeaks; the Fft result is the output.
Graph welchFftOnlyGraph(std::int64_t batch, const WelchParams& p);

// The host (rustfft) path's IO profile: launches = b·segs + b, no syncs, host output b·k·2·4,
// traffic = b·segs·n_fft·4 + b·segs·n_fft·2·4 + b·k·2·4.
IoProfile welchHostProfile(std::int64_t batch, const WelchParams& p);

// Useful bytes of one batch: b·segs·n_fft·4 + b·k·2·4.
double welchUsefulBytes(std::int64_t batch, const WelchParams& p);
// Algorithm bandwidth in bytes/ns (= GB/s); 0 for a non-positive or infinite time.
double algorithmBandwidth(double usefulBytes, double ns);

} // namespace costscope
