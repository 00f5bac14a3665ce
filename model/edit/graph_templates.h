// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>
#include <vector>

namespace costscope::edit {

enum class GraphTemplate { Empty, Mlp, TransformerBlock, WelchPeaks, FftOnly };

struct TemplateInfo {
    GraphTemplate id;
    std::string title;       // "Transformer block"
    std::string description; // one line for menus and tooltips
};
const std::vector<TemplateInfo>& graphTemplates();

// A new graph to start editing from. The MLP and the transformer block have a symbolic "batch"; the Welch-peaks
// pipeline and the FFT-only graph are RLX's own workload (cost-model.md §6) at batch 8, n_fft 256, k 16.
Graph makeTemplate(GraphTemplate t);

} // namespace costscope::edit
