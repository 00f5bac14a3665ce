#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints, loudly, what a CTest run skipped: whole tests (a SKIP_RETURN_CODE exit: no Perfetto, no Vulkan device, a
# build without CUDA) and Qt Test functions (QSKIP: a missing ../shared, ...), grouped by reason, so that a skip is
# never silent. Used by scripts/test.sh, scripts/test_sanitizers.sh and .ci/run.
# usage: scripts/skipped_tests.sh CTEST_OUTPUT_LOG CTEST_JUNIT_XML [TITLE]
#   (ctest --output-log LOG --output-junit XML --test-output-size-passed 8000000: the junit keeps every test's output)
set -euo pipefail
log=$1 junit=$2 title=${3:-}
[ -f "$log" ] && [ -f "$junit" ] || { echo "skipped_tests: no $log or $junit (did the tests run?)"; exit 1; }
# CTest's own list at the end of its run: "\t 12 - report/trace_perfetto (Skipped)".
tests=$(sed -nE 's/^[[:space:]]*[0-9]+ - (.*) \(Skipped\)$/\1/p' "$log" | sort -u)
# Qt Test's "SKIP   : TestX::f() reason" lines; a test's first line follows the <system-out> tag in the junit.
functions=$(grep -E '(^|<system-out>)SKIP +: ' "$junit" | sed -E 's/^.*SKIP +: +//; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&apos;/'"'"'/g; s/&amp;/\&/g' || true)
ntests=$(printf '%s' "$tests" | grep -c . || true)
nfunctions=$(printf '%s' "$functions" | grep -c . || true)
echo
echo "==== ${title:+$title: }SKIPPED: $ntests whole test(s), $nfunctions test function(s) ===="
if [ "$ntests" -gt 0 ]; then
  printf '%s\n' "$tests" | sed 's/^/  test: /'
fi
if [ "$nfunctions" -gt 0 ]; then
  # "TestX::function(data tag) reason" lines, counted by reason (a data tag may hold parentheses of its own).
  printf '%s\n' "$functions" | sed -E 's/^[A-Za-z0-9_]+::[A-Za-z0-9_]+(\(([^()]|\([^()]*\))*\))? //' | sort | uniq -c | sort -rn |
    sed 's/^/  functions: /'
fi
grep -E '^[0-9]+% tests passed' "$log" | tail -n 1 || true
