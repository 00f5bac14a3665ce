#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates README's screenshots from the current source: builds the GUI target (a no-op when it is up to date)
# and renders each picture with `costscope --screenshot`, offscreen, at the size the GUI uses for it (1600x1000).
#   docs/screenshot-canvas.png   the bundled CNN on the canvas with its cost heat map
#   docs/screenshot-sweep.png    the Sweeps panel for the bundled tiny transformer
#   docs/screenshot-top.png      the Top nodes dock for the bundled CNN (the dock alone, 1100x620)
#   docs/screenshot-roofline.png the Roofline dock for the bundled CNN (the dock alone, 1100x620)
#   docs/first-view-{cnn,resnet50,gpt2}.png  what opening each graph first shows, at 1280x800 (docs/canvas.md);
#              ResNet-50 from examples/onnx (scripts/fetch_examples.sh) or ../shared, GPT-2 from ../shared
# Usage: scripts/render_screenshots.sh [BUILD_DIR [OUT_DIR]]
#   BUILD_DIR: default build/release (what scripts/run.sh builds; configured with its preset when missing)
#   OUT_DIR:   default docs/ (review with `git diff --stat docs/`; README's test checks that every picture README
#              shows is listed here)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
out=${2:-$root/docs}
cd "$root"
if [ ! -f "$build/CMakeCache.txt" ]; then
  [ "$build" = "$root/build/release" ] || { echo "render_screenshots: $build is not a configured build" >&2; exit 2; }
  cmake --preset release >/dev/null
fi
cmake --build "$build" -j "${COSTSCOPE_JOBS:-$(nproc)}" --target costscope
gui=$build/app/costscope
[ -x "$gui" ] || { echo "render_screenshots: $gui was not built (Qt 6 missing?)" >&2; exit 1; }
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
"$gui" --screenshot "$out/screenshot-canvas.png" --view canvas resources/examples/cnn.hir.json
"$gui" --screenshot "$out/screenshot-sweep.png" --view sweep resources/examples/tiny_transformer.hir.json
"$gui" --screenshot "$out/screenshot-top.png" --view top resources/examples/cnn.hir.json
"$gui" --screenshot "$out/screenshot-roofline.png" --view roofline resources/examples/cnn.hir.json
shared=${COSTSCOPE_SHARED:-$root/../shared}
first_view() { # NAME FILE...: the first FILE that exists
  local name=$1 f
  shift
  for f in "$@"; do
    if [ -f "$f" ]; then
      "$gui" --screenshot "$out/first-view-$name.png" --view canvas --size 1280x800 "$f"
      return
    fi
  done
  echo "render_screenshots: no $name graph ($*): first-view-$name.png left as it was" >&2
}
first_view cnn resources/examples/cnn.hir.json
first_view resnet50 examples/onnx/light_resnet50.onnx "$shared/data/onnx/light/light_resnet50.onnx"
first_view gpt2 "$shared/data/onnx/transformers/gpt2_12l.onnx"
echo "render_screenshots: $out/screenshot-{canvas,sweep,top,roofline}.png and first-view-*.png from $gui" \
     "($("$gui" --version))"
