#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds Costscope (release) and starts the GUI on the bundled example graph. Without a display it says so and
# prints the CLI analysis of the same example instead.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
example=${1:-resources/examples/cnn.hir.json}
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  if [ -x build/release/app/costscope ]; then
    exec build/release/app/costscope "$example"
  fi
  echo "run: the GUI was not built (Qt 6 not found); showing the CLI analysis instead"
else
  echo "run: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the GUI cannot open a window."
  echo "run: here is the CLI analysis of $example instead:"
fi
build/release/app/costscope-cli info "$example"
echo
build/release/app/costscope-cli analyze "$example"
