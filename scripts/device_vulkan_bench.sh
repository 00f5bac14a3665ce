#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the Vulkan backend bench on a GPU machine (the H200 through the device tool) and prints its figures:
# element-wise and copy kernels as ratios of vkCmdCopyBuffer, and the tiled matmul's GFLOP/s at 4096^3.
# Compare those with bench_cuda_backend's copy bandwidth and cuBLAS figure from the same machine.
#
# Usage (repository root): scripts/device_vulkan_bench.sh [BENCH_BINARY] [extra bench options...]
#   BENCH_BINARY defaults to build/release/tests/bench/bench_vulkan_backend, built here when missing (needs cmake,
#   a compiler, libvulkan-dev and glslc on the machine; otherwise build it elsewhere and carry it).
# GPU machines without a Vulkan loader: fetch the loader packages into .gl/ once on the development machine
# (see the device tool's README) and carry .gl; this script unpacks them before running.
set -euo pipefail

bin="${1:-build/release/tests/bench/bench_vulkan_backend}"
[ $# -gt 0 ] && shift

if ! ldconfig -p | grep -q libvulkan.so.1; then
  if compgen -G ".gl/*.deb" >/dev/null; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  else
    echo "device_vulkan_bench: no Vulkan loader and no .gl/*.deb to unpack" >&2
    exit 1
  fi
fi
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nvidia_icd" ]; then
  export VK_DRIVER_FILES="$nvidia_icd"
fi

if [ ! -x "$bin" ]; then
  cmake --preset release -DCOSTSCOPE_WITH_GUI=OFF -DCOSTSCOPE_WITH_ONNX=OFF >/dev/null
  cmake --build build/release -j"$(nproc)" --target bench_vulkan_backend
  bin=build/release/tests/bench/bench_vulkan_backend
fi

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null || true
"$bin" --matmul 1024,4096 --elements $((1 << 26)) --repeats 10 "$@"
