#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/check_tidy.py on a one-file Ninja project in a git repository whose first commit is the repository's
# .clang-tidy (so every later line is "changed since"): a clean file is stored in the cache and then not checked
# again; a new violation fails the check on every run (findings are never stored), also one that a change to an
# included header makes (the header is in the key); a source edited after its object was built is checked, not
# looked up.
# usage: test_check_tidy.sh REPO_ROOT
set -euo pipefail
repo=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
cp "$repo/.clang-tidy" "$tmp/"
git -C "$tmp" init -q
git -C "$tmp" add .clang-tidy
git -C "$tmp" -c user.name=test -c user.email=test@localhost commit -q -m .clang-tidy
cat >"$tmp/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(tidy_probe CXX)
add_library(probe STATIC probe.cpp)
CMAKE
# A loop that copies each Item: fine for an int, a finding (performance-for-range-copy) for a std::string.
header() {
  printf '#pragma once\n#include <string>\n#include <vector>\nusing Item = %s;\ninline std::vector<Item> items() { return {}; }\n' \
    "$1" >"$tmp/probe.h"
}
header int
printf '#include "probe.h"\nint count()\n{\n    int n = 0;\n    for (auto x : items())\n        n += static_cast<int>(sizeof(x));\n    return n;\n}\n' >"$tmp/probe.cpp"
git -C "$tmp" add -N CMakeLists.txt probe.h probe.cpp
cmake -G Ninja -S "$tmp" -B "$tmp/build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
cmake --build "$tmp/build" >/dev/null

fail=0
# expect STATUS PATTERN WHAT: runs the check, wants its exit status and a line matching PATTERN.
expect() {
  local out status=0
  out=$(python3 "$repo/scripts/check_tidy.py" "$tmp/build" --source-root "$tmp" --jobs 1 2>&1) || status=$?
  if [ "$status" -ne "$1" ] || ! grep -qE "$2" <<<"$out"; then
    echo "FAIL: $3: exit $status (wanted $1), output without /$2/:"
    printf '%s\n' "$out" | sed 's/^/    /'
    fail=1
  else
    echo "ok: $3"
  fi
}
expect 0 '1 C\+\+ file\(s\) changed since .clang-tidy was added: 0 clean in the cache.*1 checked, 0 with findings' "a clean file is checked"
expect 0 '1 clean in the cache.*0 checked' "then it comes from the cache"

header std::string
cmake --build "$tmp/build" >/dev/null
expect 1 'probe\.cpp:5:.*performance-for-range-copy' "a header's change that makes a finding is seen (it is in the key)"
expect 1 '1 with findings' "and found again: a finding is never stored"

header int
cmake --build "$tmp/build" >/dev/null
expect 0 '1 clean in the cache' "the header as it was: the stored result again"
printf '#include "probe.h"\nint count() { return 0; }\nbool odd(int a) { return a %% 2 == 1 || a %% 2 == 1; }\n' >"$tmp/probe.cpp"
expect 1 'probe\.cpp:.*misc-redundant-expression' "a source edited after its build is checked, not looked up"
expect 1 '1 without a current dependency record' "and its result is not stored"
exit "$fail"
