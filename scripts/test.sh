#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures, builds (warnings are errors) and runs the whole test suite. Used by README and .ci/run.
# After the run it lists every test and test function that skipped, with its reason (a missing ../shared, a build
# without Vulkan, ...), so that a skip is never silent, then repeats CTest's summary line (scripts/skipped_tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${COSTSCOPE_PRESET:-ci}
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
export QT_QPA_PLATFORM=offscreen
log="$PWD/build/$preset/ctest-output.log"
junit="$PWD/build/$preset/ctest-junit.xml" # every test's whole output, where the Qt Test SKIP lines are
status=0
ctest --preset "$preset" -j "$(nproc)" --output-log "$log" --output-junit "$junit" --test-output-size-passed 8000000 \
  || status=$?
scripts/skipped_tests.sh "$log" "$junit"
exit "$status"
