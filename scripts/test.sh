#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures, builds (warnings are errors) and runs the whole test suite. Used by README and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${COSTSCOPE_PRESET:-ci}
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
export QT_QPA_PLATFORM=offscreen
ctest --preset "$preset" -j "$(nproc)"
