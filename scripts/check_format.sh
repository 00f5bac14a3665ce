#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks C++ and CUDA sources against .clang-format (clang-format 14, Debian's clang-format package). The tree was
# written before .clang-format existed and is adopted line by line, as LLVM and Chromium adopted theirs: what is
# checked is every line changed since the commit that added .clang-format (clang-format-diff over `git diff`), so
# that new code follows it and old code follows it once touched. --all checks whole files instead; --fix reformats
# the changed lines in place.
# usage: scripts/check_format.sh [--fix | --all]
set -euo pipefail
cd "$(dirname "$0")/.."
diff_tool=$(command -v clang-format-diff || command -v clang-format-diff-14 || true)
[ -n "$diff_tool" ] || { echo "clang-format is not installed (scripts/setup.sh installs it)"; exit 1; }
if [ "${1:-}" = "--all" ]; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu')
  bad=0
  for f in "${files[@]}"; do clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || { echo "  $f"; bad=$((bad + 1)); }; done
  echo "$bad of ${#files[@]} files differ from .clang-format"
  [ "$bad" -eq 0 ]
  exit
fi
base=$(git log --diff-filter=A --format=%H -- .clang-format | tail -n 1)
[ -n "$base" ] || { echo "check_format: .clang-format is not committed"; exit 1; }
# Changes since then, committed or not, as a zero-context diff of the sources.
changes=$(git diff -U0 --no-color "$base" -- '*.cpp' '*.h' '*.cu')
if [ "${1:-}" = "--fix" ]; then
  printf '%s\n' "$changes" | "$diff_tool" -p1 -i
  exit 0
fi
out=$(printf '%s\n' "$changes" | "$diff_tool" -p1)
if [ -n "$out" ]; then
  printf '%s\n' "$out"
  echo "check_format: the lines above, changed since $(git log -1 --format='%h %s' "$base" | cut -c1-60), are not formatted as .clang-format says (scripts/check_format.sh --fix)"
  exit 1
fi
echo "check_format: every line changed since .clang-format was added follows it"
