// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/io_profile.h"

#include <cstdint>

namespace costscope {

// The byte accounting shared by the IO profile, the RLX cost model's attribution and the fusion what-if.

// bytes(tensor) as RLX counts them: 0 when a dim is unbound (or the count overflows 64 bits).
std::uint64_t tensorBytes(const Shape& s, const Bindings& b);
// A node's share of device_traffic_bytes: its inputs (once per use) plus its output.
std::uint64_t nodeTrafficBytes(const Graph& g, const Node& n, const Bindings& b);
// Whether the node adds a sync point (LogMel, LogMelBackward, Custom, WelchPeaks; Fft with fft_host_sync).
bool isRlxHostSync(const Op& op, IoProfileOptions o = {});
std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b);

} // namespace costscope
