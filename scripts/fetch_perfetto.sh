#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs Perfetto's trace processor for CTest's report/trace_perfetto (tests/report/check_trace_perfetto.py), which
# opens a `costscope-cli run --trace` file as Perfetto's UI would. Into the git-ignored .perfetto/: a venv with the
# `perfetto` package pinned by version and hash, and the trace_processor_shell binary that the package's own
# manifest pins by SHA-256 (fetched from Google's artifact storage on first use; the package downloads nothing after).
# Without network the test skips and says so. A second run finds everything in place and needs no network.
# Usage: scripts/fetch_perfetto.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.perfetto"
perfetto_version=0.59.1
perfetto_sha256=fde529ecdf28042112d452ed431d51b797b4eea1378c10d7d25af5d36db719a3
protobuf_version=7.36.2

if [ -x "$dest/trace_processor_shell" ] && [ "$(cat "$dest/VERSION" 2>/dev/null)" = "perfetto $perfetto_version" ]; then
  echo "fetch_perfetto: trace processor of perfetto $perfetto_version already in $dest"
  exit 0
fi
command -v python3 >/dev/null || { echo "fetch_perfetto: python3 is missing (scripts/setup.sh installs it)" >&2; exit 1; }
if [ ! -x "$dest/venv/bin/pip" ]; then
  rm -rf "$dest/venv"
  python3 -m venv "$dest/venv"
fi
"$dest/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes \
    -r <(echo "perfetto==$perfetto_version --hash=sha256:$perfetto_sha256")
"$dest/venv/bin/pip" install --quiet --disable-pip-version-check "protobuf==$protobuf_version"
# The binary the package pins (its manifest holds the URL and SHA-256 per platform), copied out of its cache.
shell=$("$dest/venv/bin/python" - <<'PY'
from perfetto.prebuilts.manifests.trace_processor_shell import TRACE_PROCESSOR_SHELL_MANIFEST
from perfetto.prebuilts.perfetto_prebuilts import get_perfetto_prebuilt
print(get_perfetto_prebuilt(TRACE_PROCESSOR_SHELL_MANIFEST))
PY
) || { echo "fetch_perfetto: could not fetch trace_processor_shell (no network?); report/trace_perfetto will skip" >&2; exit 1; }
install -m 0755 "$shell" "$dest/trace_processor_shell"
echo "perfetto $perfetto_version" >"$dest/VERSION"
echo "fetch_perfetto: trace processor in $dest/trace_processor_shell"
