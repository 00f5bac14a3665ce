#!/bin/sh
# SPDX-License-Identifier: MIT
# Renders the bundled, fetched (scripts/fetch_examples.sh) and shared example graphs with `costscope --screenshot`
# for review. README's own pictures come from scripts/render_screenshots.sh.
# Usage: scripts/render_examples.sh [BUILD_DIR] [OUT_DIR]   (defaults: build/dev, build/screenshots)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/dev}
out=${2:-$root/build/screenshots}
mkdir -p "$out"
run() {
    if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
        xvfb-run -a "$build/app/costscope" --screenshot "$2" "$1"
    else
        QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} "$build/app/costscope" --screenshot "$2" "$1"
    fi
}
for f in "$root"/resources/examples/*.json "$root"/examples/onnx/*.onnx "$root"/../shared/data/rlx/*.json "$root"/../shared/data/onnx/*/*.onnx; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    if run "$f" "$out/$name.png"; then echo "$out/$name.png"; else echo "failed: $f" >&2; fi
done
