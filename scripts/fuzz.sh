#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (clang, ASan+UBSan) in build/fuzz and runs each for SECONDS (default 60), seeded with
# the shared graphs and tests/data/bad. New corpus entries stay in build/fuzz/corpus; crashes land in
# build/fuzz/findings. Exit status 1 when any target found a crash.
set -uo pipefail

seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/fuzz
shared=${COSTSCOPE_SHARED:-$root/../shared}

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_COMPILER=clang -DCOSTSCOPE_BUILD_FUZZERS=ON -DCOSTSCOPE_WITH_GUI=OFF >"$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 2; }

seeds_for() {
  case $1 in
    fuzz_rlx_json) echo "$shared/data/rlx $root/tests/data/bad" ;;
    fuzz_costscope_document) echo "$root/tests/data/bad" ;;
    fuzz_onnx_import) echo "$shared/data/onnx $root/tests/data/bad" ;;
    fuzz_shape_inference) ;;
  esac
}

status=0
for target in fuzz_rlx_json fuzz_costscope_document fuzz_shape_inference fuzz_onnx_import; do
  if ! cmake --build "$build" -j2 --target "$target" >"$build/$target.build.log" 2>&1; then
    if [ "$target" = fuzz_onnx_import ]; then
      echo "$target: not built (no ONNX in this build, or the importer is not linked yet; see $build/$target.build.log)"
      continue
    fi
    cat "$build/$target.build.log"
    exit 2
  fi
  corpus=$build/corpus/$target
  findings=$build/findings/$target
  mkdir -p "$corpus" "$findings"
  seeds=()
  for d in $(seeds_for "$target"); do
    # Under 1 MiB. (find's -size -1M rounds sizes up to whole MiB, so it would match empty files only.)
    [ -d "$d" ] && while IFS= read -r -d '' f; do seeds+=("$f"); done < <(find "$d" -type f -size -1024k -print0)
  done
  # libFuzzer takes seed files through a directory, and does not follow symbolic links: copy them into one.
  seeddir=$build/seeds/$target
  rm -rf "$seeddir" && mkdir -p "$seeddir"
  for f in "${seeds[@]}"; do cp "$f" "$seeddir/$(echo "$f" | md5sum | cut -c1-16)_$(basename "$f")"; done
  "$build/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    $([ "$target" = fuzz_shape_inference ] || echo "-dict=$root/tests/fuzz/json.dict") -artifact_prefix="$findings/" "$corpus" "$seeddir" >"$build/$target.log" 2>&1
  rc=$?
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$build/$target.log" | grep -Eo '[0-9]+$')
  crashes=$(find "$findings" -type f | wc -l)
  seeded=$(grep -Eo '[0-9]+ files found in [^ ]*/seeds/' "$build/$target.log" | grep -Eo '^[0-9]+')
  cov=$(grep -Eo 'DONE +cov: [0-9]+ ft: [0-9]+' "$build/$target.log" | grep -Eo 'cov: [0-9]+ ft: [0-9]+')
  echo "$target: exit $rc, ${runs:-?} executions in ${seconds}s from ${seeded:-?} seeds, ${cov:-cov ?}," \
    "corpus $(find "$corpus" -type f | wc -l) files, findings $crashes"
  [ "$rc" -ne 0 ] && { tail -40 "$build/$target.log"; status=1; }
done
exit $status
