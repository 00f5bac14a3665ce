// SPDX-License-Identifier: MIT
#pragma once
// The LogMel op's default filterbank, which the CPU and Vulkan backends build alike (one copy, so that the two
// cannot drift apart on an edge or a rounding).
#include <cstdint>
#include <vector>

namespace costscope {

// HTK mel filterbank [mels, bins], row-major, for bins spanning 0..8 kHz (a 16 kHz signal), the speech front ends'
// default.
std::vector<float> melFilterbank(std::int64_t mels, std::int64_t bins);

} // namespace costscope
