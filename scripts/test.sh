#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures, builds (warnings are errors) and runs the whole test suite. Used by README and .ci/run.
# After the run it lists every test function that skipped, with its reason (a missing ../shared, a build without
# Vulkan, ...), so that a skip is never silent, then repeats CTest's summary line.
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
skips=$(grep -E '^SKIP +: ' "$junit" | sed -E 's/^SKIP +: +//' || true)
count=$(printf '%s' "$skips" | grep -c . || true)
echo
echo "Skipped test functions: $count"
if [ "$count" -gt 0 ]; then
  # "TestX::function(data tag) reason" lines, grouped by reason.
  printf '%s\n' "$skips" | sed -E 's/^[A-Za-z0-9_]+::[A-Za-z0-9_]+(\([^)]*\))? //' | sort | uniq -c | sort -rn |
    sed 's/^/  /'
fi
grep -E '^[0-9]+% tests passed' "$log" | tail -n 1 || true
exit "$status"
