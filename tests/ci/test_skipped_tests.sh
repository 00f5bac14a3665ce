#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/skipped_tests.sh on a CTest run of three stand-in tests: one skipped whole (SKIP_RETURN_CODE), one whose
# Qt Test functions skip (two for a missing ../shared, the first on the output's first line and with a data tag that
# holds parentheses, one with XML-escaped text), one that passes. The summary must count and name each.
# usage: test_skipped_tests.sh REPO_ROOT
set -euo pipefail
repo=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/skip_functions.sh" <<'SH'
echo 'SKIP   : TestX::f(squeezenet (158 nodes)) ../shared not found (set COSTSCOPE_SHARED)'
echo 'SKIP   : TestX::g() ../shared not found (set COSTSCOPE_SHARED)'
echo 'SKIP   : TestX::h() needs "vulkan" & <a device>'
echo 'PASS   : TestX::i()'
SH
cat >"$tmp/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(skips NONE)
enable_testing()
add_test(NAME a/whole COMMAND sh -c "exit 77")
set_tests_properties(a/whole PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME b/functions COMMAND sh ${CMAKE_SOURCE_DIR}/skip_functions.sh)
add_test(NAME c/passes COMMAND true)
CMAKE
cmake -S "$tmp" -B "$tmp/build" >/dev/null
ctest --test-dir "$tmp/build" --output-log "$tmp/log" --output-junit "$tmp/junit.xml" \
  --test-output-size-passed 8000000 >/dev/null
out=$("$repo/scripts/skipped_tests.sh" "$tmp/log" "$tmp/junit.xml" "stand-in suite")
printf '%s\n' "$out"
fail=0
for want in '==== stand-in suite: SKIPPED: 1 whole test\(s\), 3 test function\(s\) ====' '^  test: a/whole$' \
  '^  functions: +2 \.\./shared not found \(set COSTSCOPE_SHARED\)$' '^  functions: +1 needs "vulkan" & <a device>$' \
  '^100% tests passed, 0 tests failed out of 3$'; do
  grep -qE "$want" <<<"$out" || { echo "FAIL: no line matching /$want/"; fail=1; }
done
exit "$fail"
