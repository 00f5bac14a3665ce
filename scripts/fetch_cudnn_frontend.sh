#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unpacks the header-only C++ API of cudnn_frontend (cuDNN's graph API, which the CUDA backend's fused attention
# uses: engine/cuda/cudnn_sdpa.cpp) from the pinned PyPI wheel into the git-ignored .deps/cudnn_frontend/include; no
# Debian package has it. Only include/ is kept. Idempotent; offline it warns and exits 0, and the build goes on
# without cuDNN's attention (the configure step says so).
# usage: scripts/fetch_cudnn_frontend.sh [DEST]   (DEST default: .deps/cudnn_frontend in the repository root)
set -euo pipefail
version=1.32.0
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root/.deps/cudnn_frontend}
if [ -f "$dest/include/cudnn_frontend.h" ] && [ "$(cat "$dest/VERSION" 2>/dev/null)" = "$version" ]; then
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Debian's python3 has no pip without python3-pip: a throw-away venv (python3-venv, which setup.sh installs) has one.
pip=(python3 -m pip)
if ! python3 -m pip --version >/dev/null 2>&1; then
  python3 -m venv "$tmp/venv" && pip=("$tmp/venv/bin/pip")
fi
# One wheel of any Python/platform tag: include/ is the same in each.
if ! "${pip[@]}" download -q --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux_2_28_x86_64 \
    "nvidia-cudnn-frontend==$version" -d "$tmp" >"$tmp/pip.log" 2>&1; then
  echo "fetch_cudnn_frontend: WARNING: could not download nvidia-cudnn-frontend==$version (PyPI unreachable?);" \
       "the CUDA backend builds without cuDNN's fused attention" >&2
  tail -3 "$tmp/pip.log" >&2
  exit 0
fi
rm -rf "$dest/include"
mkdir -p "$dest"
python3 - "$tmp"/nvidia_cudnn_frontend-*.whl "$dest" <<'PY'
import sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    z.extractall(dest, [n for n in z.namelist() if n.startswith("include/")])
PY
echo "$version" >"$dest/VERSION"
echo "fetch_cudnn_frontend: cudnn_frontend $version headers in $dest/include"
