#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A costscope-cli built with the CUDA backend must start and run on the CPU on a machine without the CUDA toolkit:
# the toolkit's folder is hidden (an empty folder mounted over it, in a private mount namespace), then the CLI prints
# its version, lists the CUDA backend as unavailable with the loader's reason, runs a graph on the CPU, and refuses
# `--backend cuda` with exit 3 and that reason.
# usage: check_without_cuda.sh COSTSCOPE_CLI CUDA_TOOLKIT_ROOT GRAPH
set -euo pipefail
cli=$1
cuda_root=$(readlink -f "$2")
graph=$3
if ! unshare -rm true 2>/dev/null; then
  echo "SKIPPED: this machine does not allow a private mount namespace (unshare -rm), so CUDA cannot be hidden"
  exit 77
fi
empty=$(mktemp -d)
trap 'rmdir "$empty"' EXIT
unshare -rm bash -euo pipefail -c '
  mount --bind "$1" "$2"
  cli=$3 graph=$4
  [ -z "$(ls -A "$2")" ] || { echo "FAIL: $2 is still visible"; exit 1; }
  "$cli" --version
  devices=$("$cli" devices)
  echo "$devices"
  echo "$devices" | grep -q "^cuda: unavailable: .*libcu" || { echo "FAIL: devices does not say why CUDA is unavailable"; exit 1; }
  "$cli" run "$graph" --backend cpu --runs 1 >/dev/null || { echo "FAIL: a CPU run failed without CUDA"; exit 1; }
  set +e
  err=$("$cli" run "$graph" --backend cuda --runs 1 2>&1 >/dev/null)
  rc=$?
  set -e
  echo "run --backend cuda: exit $rc: $err"
  [ "$rc" -eq 3 ] && [[ "$err" == *"backend '"'"'cuda'"'"' is unavailable"* ]] || { echo "FAIL: expected exit 3 naming why"; exit 1; }
' check "$empty" "$cuda_root" "$cli" "$graph"
echo "1 passed, 0 failed"
