#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs .clang-tidy's checks (clang-tidy 14, Debian's clang-tidy package) on the C++ lines changed since .clang-tidy
# was added, committed or not, as check_format.sh does for .clang-format: new code follows it, old code once touched.
# It needs a configured build's compile_commands.json (default build/ci; COSTSCOPE_TIDY_BUILD or the first argument
# names another). Files that build only with CUDA are left out where that build has none.
# usage: scripts/check_tidy.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-${COSTSCOPE_TIDY_BUILD:-build/ci}}
diff_tool=$(command -v clang-tidy-diff || command -v clang-tidy-diff-14.py || true)
[ -n "$diff_tool" ] || { echo "clang-tidy is not installed (scripts/setup.sh installs it)"; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "check_tidy: no $build/compile_commands.json (configure first)"; exit 1; }
base=$(git log --diff-filter=A --format=%H -- .clang-tidy | tail -n 1)
[ -n "$base" ] || { echo "check_tidy: .clang-tidy is not committed"; exit 1; }
# Only sources the build compiles (headers are checked through them): the others have no compile command.
mapfile -t sources < <(git diff --name-only --diff-filter=AM "$base" -- '*.cpp' |
  while read -r f; do grep -qF "\"file\": \"$PWD/$f\"" "$build/compile_commands.json" && echo "$f"; done || true)
if [ "${#sources[@]}" -eq 0 ]; then
  echo "check_tidy: no compiled C++ file changed since .clang-tidy was added"
  exit 0
fi
# GCC's warning flags in the compile commands are unknown to clang: not a finding.
out=$(git diff -U0 --no-color "$base" -- "${sources[@]}" |
  "$diff_tool" -p1 -regex '.*\.cpp' -path "$build" -quiet -j "$(nproc)" -extra-arg=-Wno-unknown-warning-option 2>&1) ||
  status=$?
if [ "${status:-0}" -ne 0 ] || grep -qE '(warning|error): ' <<<"$out"; then
  printf '%s\n' "$out" | grep -vE '^[0-9]+ warnings? generated\.$|^Suppressed |^Use -header-filter' || true
  echo "check_tidy: the findings above are on lines changed since .clang-tidy was added (see .clang-tidy for why)"
  exit 1
fi
echo "check_tidy: no finding on the ${#sources[@]} C++ file(s) changed since .clang-tidy was added"
