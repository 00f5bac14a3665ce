#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sanitizer half of CI (.ci/run runs it after scripts/test.sh):
#   asan-ci: AddressSanitizer + UndefinedBehaviorSanitizer (with libstdc++'s bounds assertions) over the Qt-free code
#            (model, engine, use cases, CLI) and every test of it, but the long report-only ones (ONNX conformance,
#            packaging, the README run, style);
#   tsan:    ThreadSanitizer over the tests labelled `threaded` in tests/CMakeLists.txt (a const Graph's lazy index
#            shared by workers, sweeps, the CPU backend's thread pool, runs on every device at once, run-and-compare),
#            building only their targets.
# Why not the GUI: Qt is not built with the sanitizers here, its tests drive widgets through an uninstrumented
# library, and a sanitizer build of ui/ and of the CUDA/Vulkan plugins would double CI's time on two cores; the
# GUI's threads go through the same use cases and engine code that these runs cover.
# Both build at -O1 -g1: line tables are enough for the reports, and less optimisation and debug info is less to
# compile on two cores.
# Each stage prints its wall time, for CI's 60-minute budget on two cores, and what it skipped.
# usage: scripts/test_sanitizers.sh [asan-ci] [tsan]   (both when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
[ "${#stages[@]}" -gt 0 ] || stages=(asan-ci tsan)
export QT_QPA_PLATFORM=offscreen
status=0
for preset in "${stages[@]}"; do
  case "$preset" in
  asan-ci | tsan) ;;
  *) echo "test_sanitizers: unknown stage '$preset' (asan-ci or tsan)"; exit 2 ;;
  esac
  start=$SECONDS
  cmake --preset "$preset" >/dev/null
  targets=()
  if [ "$preset" = tsan ]; then
    # A test model/test_ir is built by the target model_test_ir.
    mapfile -t targets < <(ctest --preset tsan -N | sed -nE 's|^ *Test +#[0-9]+: ([a-z]+)/(test_[a-z0-9_]+)$|\1_\2|p')
    [ "${#targets[@]}" -gt 0 ] || { echo "test_sanitizers: no test is labelled threaded"; exit 1; }
    targets=(--target "${targets[@]}")
  fi
  cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
  built=$SECONDS
  log="$PWD/build/$preset/ctest-output.log" junit="$PWD/build/$preset/ctest-junit.xml"
  ctest --preset "$preset" -j "$(nproc)" --output-log "$log" --output-junit "$junit" \
    --test-output-size-passed 8000000 || status=1
  scripts/skipped_tests.sh "$log" "$junit" "$preset"
  echo "$preset: $((SECONDS - start)) s wall ($((built - start)) s configure and build, $((SECONDS - built)) s tests)"
done
exit "$status"
