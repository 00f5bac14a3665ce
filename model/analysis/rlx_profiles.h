// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"

#include <optional>
#include <string_view>
#include <vector>

namespace costscope {

// RLX's built-in device profiles (cost-model.md §4), as parity profile sets, data in
// resources/profiles/sets/<set>.json compiled into the library (profile_set.h):
// "rlx-linux": what RLX computes on an x86 Linux host built with its cpu, cuda and gpu features;
// "rlx-apple": the same with the Apple aarch64 CPU row.
// One profile per estimable device, named "<set>/<device in lower case>" ("rlx-linux/cuda"). Metal, Mlx,
// Ane and Tpu get the discrete-GPU fallback (rlxFallback = true): RLX has no model for them uncalibrated.
// The Cpu profile's numThreads is RLX's workers + 1 on this host.
// An unknown set name gives an empty list.
std::vector<DeviceProfile> rlxProfileSet(std::string_view set);
std::vector<std::string_view> rlxProfileSetNames();

// The profile of `d` in `set`, or nullptr when the set has none.
const DeviceProfile* findProfile(const std::vector<DeviceProfile>& set, Device d);

// RLX's "discrete GPU" fallback model (the rlx-linux set's discrete_gpu_fallback row, as device Gpu): sgemm 800,
// dispatch 2000, roundtrip 20000, memory_bw 800, host_readback_bw 50, not unified.
DeviceProfile rlxDiscreteGpuFallback();

// RLX CPU workers: RLX_WORKERS when it is a positive integer, else half the cores clamped to 1..15
// (0 or an unparsable value means auto). The profile sets read it as COSTSCOPE_WORKERS or RLX_WORKERS.
int rlxCpuWorkers(int cores, std::optional<std::string_view> rlxWorkersEnv);

} // namespace costscope
