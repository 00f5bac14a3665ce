#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The ONNX node conformance suite (1 884 cases of the pinned onnx release) against costscope-cli and ONNX Runtime.
#
#   scripts/conformance.sh generate                  venv + suite in .conformance/ (git-ignored); idempotent
#   scripts/conformance.sh run --cli PATH [ARGS]     the report (scripts/conformance/run_node_suite.py --help)
#   scripts/conformance.sh run --cli PATH --update-baseline   rewrites the committed list of passing cases
#
# `run` generates the suite first when it is missing (PyPI must be reachable then); when it cannot, it fails and
# says so instead of skipping. ONNX Runtime is optional: where it cannot be installed the report says so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${COSTSCOPE_CONFORMANCE_DIR:-$root/.conformance}
onnx_pin=onnx==1.23.2
ort_pin=onnxruntime==1.32.0
stamp="$dir/suite.stamp"
venv="$dir/venv"

generate() {
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$onnx_pin" ] && [ -d "$dir/node" ]; then
    echo "conformance: suite of $onnx_pin already in $dir/node"
  else
    # Each step checks its own status: `if ! generate` below turns errexit off inside the function.
    mkdir -p "$dir" || return 1
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || return 1
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$onnx_pin" || return 1
    "$venv/bin/python" "$root/scripts/conformance/generate_node_suite.py" "$dir/node" || return 1
    echo "$onnx_pin" >"$stamp"
  fi
  if ! "$venv/bin/python" -c "import onnxruntime" 2>/dev/null; then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "$ort_pin" ||
      echo "conformance: $ort_pin cannot be installed here; reports will run without ONNX Runtime" >&2
  fi
}

case "${1:-}" in
generate)
  generate
  ;;
run)
  shift
  if ! generate; then
    echo "CONFORMANCE SUITE MISSING: $onnx_pin could not be installed into $venv or the suite not generated" \
      "(is PyPI reachable?). Run scripts/conformance.sh generate where it is." >&2
    exit 1
  fi
  exec "$venv/bin/python" "$root/scripts/conformance/run_node_suite.py" --suite "$dir/node" "$@"
  ;;
*)
  sed -n '3,9p' "$0" >&2
  exit 2
  ;;
esac
