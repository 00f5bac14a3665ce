#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/test_sanitizers.sh's time budget (COSTSCOPE_SANITIZER_BUDGET_S), on a stand-in project with the presets
# asan-ci and tsan whose "builds" and tests are shell commands: a target that cannot be built within the budget is
# named NOT BUILT and the tests built before it NOT RUN, without failing the stage; a test that runs into the budget's
# end is named STOPPED, without failing it; a test that fails within the budget fails the stage.
# usage: test_sanitizer_budget.sh REPO_ROOT
set -euo pipefail
repo=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp "$repo/scripts/test_sanitizers.sh" "$repo/scripts/skipped_tests.sh" "$tmp/scripts/"
cat >"$tmp/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(budget NONE)
enable_testing()
# Built at once, and its test runs as the environment says; then one whose build outlasts any short budget.
add_custom_target(costscope-cli COMMAND true) # built first: tests run it as a program
add_custom_target(model_test_fast COMMAND true)
add_test(NAME model/test_fast COMMAND sh -c "sleep \${FAKE_SLEEP:-0}; exit \${FAKE_EXIT:-0}")
if(PRESET STREQUAL "asan-ci")
  add_custom_target(model_test_slow COMMAND sleep 60)
  add_test(NAME model/test_slow COMMAND true)
endif()
add_test(NAME ci/script COMMAND true)
CMAKE
cat >"$tmp/CMakePresets.json" <<'JSON'
{
  "version": 6,
  "configurePresets": [
    {"name": "asan-ci", "generator": "Ninja", "binaryDir": "${sourceDir}/build/asan-ci",
     "cacheVariables": {"PRESET": "asan-ci"}},
    {"name": "tsan", "generator": "Ninja", "binaryDir": "${sourceDir}/build/tsan", "cacheVariables": {"PRESET": "tsan"}}
  ],
  "buildPresets": [{"name": "asan-ci", "configurePreset": "asan-ci"}, {"name": "tsan", "configurePreset": "tsan"}],
  "testPresets": [{"name": "asan-ci", "configurePreset": "asan-ci"}, {"name": "tsan", "configurePreset": "tsan"}]
}
JSON
fail=0
# expect NAME EXIT_STATUS "ENV ..." STAGE BUDGET PATTERN...: the stage's exit status and lines matching each pattern.
expect() {
  local name=$1 want=$2 env=$3 stage=$4 budget=$5 rc=0 out
  shift 5
  out=$(env $env COSTSCOPE_SANITIZER_BUDGET_S="$budget" bash "$tmp/scripts/test_sanitizers.sh" "$stage" 2>&1) || rc=$?
  [ "$rc" -eq "$want" ] || { echo "FAIL: $name: exit $rc, expected $want"; fail=1; }
  for pattern in "$@"; do
    grep -qE "$pattern" <<<"$out" || { echo "FAIL: $name: no line matching /$pattern/"; fail=1; }
  done
  [ "$fail" -eq 0 ] || printf '%s\n' "---- output of $name:" "$out"
}
built='built \(or scripts, which need no build\)'
# Building stops at two thirds of the budget (10 of 15 s), and what was built runs in the rest.
expect "a build that outlasts the budget" 0 "" asan-ci 15 "^==== asan-ci: 3 tests; 2 $built, 2 ran ====\$" \
  '^  NOT BUILT within the budget \(1\): model/test_slow$'
expect "a test that fails within the budget" 1 "FAKE_EXIT=1" tsan 120 "^==== tsan: 2 tests; 2 $built, 2 ran ====\$"
expect "a test stopped at the budget's end" 0 "FAKE_SLEEP=60" tsan 8 \
  "^==== tsan: 2 tests; 2 $built, 2 ran ====\$" '^  STOPPED by the budget.s end \(1\): model/test_fast$'
expect "without a budget, all built and run" 0 "" tsan 0 "^==== tsan: 2 tests; 2 $built, 2 ran ====\$"
[ "$fail" -ne 0 ] || echo "test_sanitizer_budget: all cases as expected"
exit "$fail"
