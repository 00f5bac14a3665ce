#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# onnx_node_runner's worker isolation against its fork isolation on the CPU backend, with the small ONNX node cases
# of ../shared/data/onnx/node (simple and pytorch-operator, not the generated suite): both modes must give each case
# the same result; then, with test faults injected into two cases (COSTSCOPE_RUNNER_FAULT), worker mode must report
# one crash and one hang and every other case as before, its workers replaced after each fault and after every
# three cases.
# usage: test_runner_isolation.sh RUNNER NODE_DATA_DIR     (exit 77, skipped, without the data)
set -euo pipefail
runner=$1 data=$2
cases=()
for d in "$data"/simple/*/ "$data"/pytorch-operator/*/; do
  [ -f "$d/model.onnx" ] && cases+=("${d%/}")
done
if [ "${#cases[@]}" -lt 10 ]; then
  echo "SKIPPED: no ONNX node cases in $data"
  exit 77
fi
cases=("${cases[@]:0:40}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

"$runner" --backend cpu --jobs 2 --isolation fork "${cases[@]}" | sort >"$tmp/fork"
"$runner" --backend cpu --jobs 2 --isolation worker "${cases[@]}" | sort >"$tmp/worker"
[ "$(wc -l <"$tmp/fork")" -eq "${#cases[@]}" ] || fail "fork mode reported $(wc -l <"$tmp/fork") of ${#cases[@]} cases"
grep -q $'\tpass\t' "$tmp/fork" || fail "no case passes: the runner is not running them"
diff -u "$tmp/fork" "$tmp/worker" || fail "worker mode differs from fork mode"

crash=$(basename "${cases[3]}") hang=$(basename "${cases[20]}")
start=$(date +%s)
COSTSCOPE_RUNNER_FAULT="crash:$crash,hang:$hang" "$runner" --backend cpu --jobs 2 --isolation worker --timeout 3 \
  --cases-per-worker 3 "${cases[@]}" | sort >"$tmp/faults"
echo "worker mode with faults: $(($(date +%s) - start)) s"
grep -q "^$crash"$'\tcrash\tsignal 6 ' "$tmp/faults" || fail "$crash is not a crash: $(grep "^$crash" "$tmp/faults")"
grep -q "^$hang"$'\thang\t' "$tmp/faults" || fail "$hang is not a hang: $(grep "^$hang" "$tmp/faults")"
diff <(grep -v -e "^$crash"$'\t' -e "^$hang"$'\t' "$tmp/fork") \
  <(grep -v -e "^$crash"$'\t' -e "^$hang"$'\t' "$tmp/faults") || fail "the other cases differ after the faults"
echo "PASS: ${#cases[@]} cases alike in fork and worker mode; one crash and one hang reported, the rest unchanged"
