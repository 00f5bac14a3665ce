// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/io_profile.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace costscope {

// The byte accounting shared by the IO profile, the RLX cost model's attribution and the fusion what-if.

// bytes(tensor) as RLX counts them: 0 when a dim is unbound (or the count overflows 64 bits).
std::uint64_t tensorBytes(const Shape& s, const Bindings& b);
// The same from the element count s.elements(b) already resolved.
std::uint64_t tensorBytes(const Shape& s, std::optional<std::uint64_t> elements);
// A node's share of device_traffic_bytes: its inputs (once per use) plus its output.
std::uint64_t nodeTrafficBytes(const Graph& g, const Node& n, const Bindings& b);

// For whole-graph passes that resolve each shape once: every node's output element count (graph order) and
// tensorBytes from it, then the traffic share and the IO profile from those bytes (same results as above).
std::vector<std::optional<std::uint64_t>> nodeElements(const Graph& g, const Bindings& b);
std::vector<std::uint64_t> nodeBytes(const Graph& g, const std::vector<std::optional<std::uint64_t>>& elements);
std::uint64_t nodeTrafficBytes(const Graph& g, const Node& n, const std::vector<std::uint64_t>& bytes);
IoProfile ioProfileOfBytes(const Graph& g, const std::vector<std::uint64_t>& bytes, IoProfileOptions o = {});
// Whether the node adds a sync point (LogMel, LogMelBackward, Custom, WelchPeaks; Fft with fft_host_sync).
bool isRlxHostSync(const Op& op, IoProfileOptions o = {});
std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b);

} // namespace costscope
