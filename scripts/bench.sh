#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds benchmarks in the release preset and runs them from the repository root, where they find ../shared.
# usage: scripts/bench.sh [BENCH...]    e.g. scripts/bench.sh bench_cpu_backend bench_accuracy
# Without names it runs the benchmarks every build has; bench_layout and bench_overlay need the GUI,
# bench_cuda_backend a CUDA build. COSTSCOPE_PRESET picks another preset, COSTSCOPE_JOBS the build's parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${COSTSCOPE_PRESET:-release}
benches=("$@")
if [ ${#benches[@]} -eq 0 ]; then
  benches=(bench_startup bench_load bench_analysis bench_cpu_backend bench_accuracy)
fi
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "${COSTSCOPE_JOBS:-$(nproc)}" --target "${benches[@]}"
export QT_QPA_PLATFORM=offscreen
for bench in "${benches[@]}"; do
  echo "== $bench"
  "build/$preset/tests/bench/$bench"
done
