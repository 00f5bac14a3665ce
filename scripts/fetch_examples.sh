#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches the public example models that README's examples use into examples/ (git-ignored): the ONNX project's
# "light" backend-test models (AlexNet, Inception v1/v2, ResNet-50, SqueezeNet, VGG-19, ... with their expected
# first outputs), which the `onnx` wheel on PyPI ships under onnx/backend/test/data/light/. Only the wheel is
# downloaded, never installed: pip runs from a venv of this script's own (examples/.venv) so that the system Python
# is left alone, and the wheel is pinned by version and hash. The wheel stays in examples/.wheels, so a second run
# needs no network; a run that finds the models in place does nothing.
# Usage: scripts/fetch_examples.sh [DEST]     (default: examples/ in the repository root; also COSTSCOPE_EXAMPLES)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-${COSTSCOPE_EXAMPLES:-$root/examples}}

# One wheel: the data files are the same in every platform's wheel, so the x86_64 CPython 3.11 one is named
# exactly (pip then picks it on any host) and its hash can be pinned.
onnx_version=1.17.0
wheel=onnx-1.17.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
wheel_sha256=4a183c6178be001bf398260e5ac2c927dc43e7746e8638d6c05c20e321f8c949
models=(light_bvlc_alexnet light_densenet121 light_inception_v1 light_inception_v2 light_resnet50
        light_shufflenet light_squeezenet light_vgg19 light_zfnet512)
stamp="$dest/onnx/FETCHED"

complete() {
  [ "$(cat "$stamp" 2>/dev/null)" = "onnx $onnx_version" ] || return 1
  local m
  for m in "${models[@]}"; do
    [ -s "$dest/onnx/$m.onnx" ] && [ -s "$dest/onnx/${m}_output_0.pb" ] || return 1
  done
}

if complete; then
  echo "fetch_examples: ${#models[@]} ONNX example models already in $dest/onnx"
  exit 0
fi

if [ ! -f "$dest/.wheels/$wheel" ] || ! echo "$wheel_sha256  $dest/.wheels/$wheel" | sha256sum -c --status; then
  command -v python3 >/dev/null || { echo "fetch_examples: python3 is missing (scripts/setup.sh installs it)" >&2; exit 1; }
  if [ ! -x "$dest/.venv/bin/pip" ]; then
    rm -rf "$dest/.venv"
    python3 -m venv "$dest/.venv" || {
      echo "fetch_examples: python3 -m venv failed (Debian: apt-get install python3-venv; scripts/setup.sh does)" >&2
      exit 1
    }
  fi
  mkdir -p "$dest/.wheels"
  echo "onnx==$onnx_version --hash=sha256:$wheel_sha256" >"$dest/.wheels/requirements.txt"
  echo "fetch_examples: downloading $wheel from PyPI"
  "$dest/.venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --require-hashes \
      --only-binary=:all: --platform manylinux_2_17_x86_64 --python-version 3.11 --implementation cp --abi cp311 \
      -r "$dest/.wheels/requirements.txt" -d "$dest/.wheels" || {
    echo "fetch_examples: could not download onnx $onnx_version from PyPI (no network?); README's ONNX examples" \
         "need $dest/onnx" >&2
    exit 1
  }
fi

# The wheel is a zip; Python reads it (unzip is not a dependency of the project).
rm -rf "$dest/onnx" && mkdir -p "$dest/onnx"
python3 - "$dest/.wheels/$wheel" "$dest/onnx" "$onnx_version" "${models[@]}" <<'EOF'
import sys, zipfile
wheel, out, version, models = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
prefix = "onnx/backend/test/data/light/"
with zipfile.ZipFile(wheel) as z:
    names = set(z.namelist())
    wanted = [f"{m}{suffix}" for m in models for suffix in (".onnx", "_output_0.pb")] + ["README.md"]
    for name in wanted:
        if prefix + name not in names:
            sys.exit(f"fetch_examples: {prefix}{name} is not in {wheel}")
        with open(f"{out}/{name}", "wb") as f:
            f.write(z.read(prefix + name))
    with open(f"{out}/LICENSE", "wb") as f:  # Apache-2.0: the models travel with their licence
        f.write(z.read(f"onnx-{version}.dist-info/LICENSE"))
EOF
echo "onnx $onnx_version" >"$stamp"
echo "fetch_examples: ${#models[@]} ONNX example models (onnx $onnx_version backend tests) in $dest/onnx"
