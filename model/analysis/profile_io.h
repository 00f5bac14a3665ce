// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "ir/diagnostic.h"

#include <string>

namespace costscope {

// Device profile JSON (one object per file; keys in this order on save, all but name and device optional):
// {
//   "name": "nvidia-h200",                 string, unique in a library
//   "device": "Cuda",                      RLX device name (Cpu, Cuda, Gpu/wgpu, Metal, ...)
//   "description": "...", "source": "...",  free text; source names the datasheet / calibration run
//   "calibration": "ArchDefault",          Measured | ArchDefault | Uncalibrated (calibration_tag.h); absent:
//                                          Uncalibrated when rlx_fallback, else ArchDefault
//   "sgemm_gflops": 60000,                 flat sgemm rate, GFLOP/s
//   "small_sgemm_gflops": 0, "small_sgemm_threshold": 0,   RLX Mlx small-shape rate under m·k·n threshold
//   "dispatch_ns": 4000, "roundtrip_ns": 20000,            kernel launch and host round trip, ns
//   "memory_bw_gbps": 4800, "host_readback_bw_gbps": 55,   GB/s (= bytes/ns); readback 0 = memory bw
//   "unified_memory": false, "num_threads": 1,
//   "peak_gflops": 67000,                  fp32 peak, GFLOP/s (0: sgemm_gflops)
//   "sgemm_table": [{"m":..,"k":..,"n":..,"gflops":..}],   measured/estimated rates by shape
//   "dtype_peaks": {..}, "dtype_gemm_tables": {..},        per-precision peaks and GEMM rates (dtype_rates_io.h)
//   "im2col_bw_gbps": 220,                 im2col column bytes/ns added to Conv's GEMM (saved only when set)
//   "memory_bw_table": [{"bytes":..,"gbps":..}],   CPU: copy bandwidth by bytes moved (saved only when set)
//   "kernel_gflops": {"Pool": 0.4},        CPU: FLOP rate of the backend's kernel by op kind (saved only when set)
//   "kernel_gflops_by_size": {"Activation.Gelu": [{"flops":..,"gflops":..}]},   CPU: the same by node FLOPs
//   "host_probe": {"gemm_ns":..,"kernel_ns":..,"memory_ns":..,"dispatch_ns":..},  CPU: reference times at calibration
//   "conv_per_sample": true,               CPU: Conv is im2col + GEMM per sample and group (saved only when true)
//   "conv_call_ns": 9000,                  CPU: fixed cost of each of those calls (saved only when set)
//   "gemm_packs_b": true,                  CPU: the sgemm writes a packed copy of B (saved only when true)
//   "view_copy_bw_gbps": 12,               CPU: views copy their tensor at this rate (saved only when set)
//   "corrections": {"matmul": 1.1},        per op class (opClassName) time factors
//   "kernel_predictors": {"matmul": {"samples": 900, "train_mape": 4.1, "xgboost": {XGBoost JSON model}}},
//                                          learned per kernel class (kernel_predictor.h); unreadable ones are
//                                          left out with a warning (DeviceProfile::loadWarnings)
//   "graph_composition": {"kernel_scale": 0.9, "per_kernel_ns": -400, "fixed_ns": 9000},   kernels → whole graph
//   "rlx_fallback": false                  RLX's discrete-GPU fallback estimate for this device
// }
std::string profileToJsonText(const DeviceProfile& p);
// `origin` (usually the file path) prefixes every error: "FILE: key 'sgemm_gflops': expected a number".
Result<DeviceProfile> profileFromJsonText(const std::string& text, const std::string& origin);
Result<DeviceProfile> loadProfileFile(const std::string& path);

// An RLX calibration cache (~/.cache/rlx/<backend>-calib-<slug>.json: device_name, sgemm_gflops,
// roundtrip_overhead_ns, memory_bw_gbps) as a profile named "rlx-cache/<file stem>", tagged Measured. RLX stores the
// rate in FLOP/s under a GFLOP/s name: values above 1e6 are divided by 1e9 and the description says so.
Result<DeviceProfile> loadRlxCalibrationCache(const std::string& path);

} // namespace costscope
