// SPDX-License-Identifier: MIT
#include "mel_filterbank.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace costscope {

std::vector<float> melFilterbank(std::int64_t mels, std::int64_t bins)
{
    auto toMel = [](double f) { return 2595.0 * std::log10(1.0 + f / 700.0); };
    auto toHz = [](double m) { return 700.0 * (std::pow(10.0, m / 2595.0) - 1.0); };
    const double nyquist = 8000.0, top = toMel(nyquist);
    std::vector<double> edges(static_cast<std::size_t>(mels + 2));
    for (std::size_t i = 0; i < edges.size(); ++i)
        edges[i] = toHz(top * double(i) / double(mels + 1));
    std::vector<float> fb(static_cast<std::size_t>(mels * bins), 0.0f);
    for (std::int64_t m = 0; m < mels; ++m)
        for (std::int64_t b = 0; b < bins; ++b) {
            const double f = nyquist * double(b) / double(std::max<std::int64_t>(bins - 1, 1));
            const double lo = edges[static_cast<std::size_t>(m)], mid = edges[static_cast<std::size_t>(m + 1)];
            const double hi = edges[static_cast<std::size_t>(m + 2)];
            const double w = f <= mid ? (f - lo) / (mid - lo) : (hi - f) / (hi - mid);
            fb[static_cast<std::size_t>(m * bins + b)] = static_cast<float>(std::max(0.0, w));
        }
    return fb;
}

} // namespace costscope
