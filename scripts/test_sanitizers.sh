#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sanitizer half of CI (.ci/run runs it after scripts/test.sh):
#   asan-ci: AddressSanitizer + UndefinedBehaviorSanitizer over the Qt-free code (model, engine, use cases, CLI) and
#            every test of it, but the long report-only ones (ONNX conformance, packaging, the README run, style);
#   tsan:    ThreadSanitizer over the tests labelled `threaded` (a const Graph's lazy index shared by workers, the
#            CPU backend's thread pool, runs on every device at once, run-and-compare), built alone.
# Why not the GUI: Qt is not built with the sanitizers here, its tests drive widgets through an uninstrumented
# library, and a sanitizer build of ui/ and of the CUDA/Vulkan plugins would double CI's time on two cores; the
# GUI's threads go through the same use cases and engine code that these runs cover.
# Each stage prints the CPU time it took (user + sys), for the 60-minute budget of CI on two cores.
# usage: scripts/test_sanitizers.sh [asan-ci] [tsan]   (both when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
[ "${#stages[@]}" -gt 0 ] || stages=(asan-ci tsan)
threaded_targets=(model_test_ir engine_test_multi_device_run engine_test_cpu_kernels_nn usecases_test_use_cases)
status=0
for preset in "${stages[@]}"; do
  case "$preset" in
  asan-ci) targets=() ;;
  tsan) targets=(--target "${threaded_targets[@]}") ;;
  *) echo "test_sanitizers: unknown stage '$preset' (asan-ci or tsan)"; exit 2 ;;
  esac
  TIMEFORMAT="$preset: %R s wall, %U s user + %S s sys CPU"
  time {
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
    QT_QPA_PLATFORM=offscreen ctest --preset "$preset" -j "$(nproc)" || status=1
  }
done
exit "$status"
