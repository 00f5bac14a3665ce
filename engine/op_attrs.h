// SPDX-License-Identifier: MIT
#pragma once
// Op attributes every backend (CPU, CUDA, Vulkan) reads the same way: one reader each, so that a backend cannot
// accept a spelling another rejects. The plugins link it through costscope_engine.

#include "ir/attribute.h"
#include "ir/diagnostic.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace costscope {

// A spatial attribute (stride, dilation, padding) expanded to n entries: one value repeats, a list of another
// length (or none) gives n times `dflt`.
std::vector<std::int64_t> spatialAttr(const Attrs& attrs, const std::string& key, std::size_t n, std::int64_t dflt);

// The factor an Fft of length n scales by for its `norm` attribute ("Backward", "Forward", "Ortho") and direction;
// an error naming an unknown norm.
Result<double> fftScale(const Attrs& attrs, bool inverse, std::int64_t n);

// Attention's `mask_kind`: none, causal, a sliding window of `window` keys, or a mask read from the 4th input.
struct AttentionMask {
    enum Kind { None, Causal, Window, Input } kind = None;
    std::int64_t window = 0;
};
// An error (without the op's name) for an unknown or unsupported mask_kind.
Result<AttentionMask> attentionMask(const Attrs& attrs);

} // namespace costscope
