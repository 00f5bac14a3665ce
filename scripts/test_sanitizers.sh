#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sanitizer half of CI (.ci/run runs it after scripts/test.sh):
#   tsan:    ThreadSanitizer + UndefinedBehaviorSanitizer over the tests labelled `threaded` in tests/CMakeLists.txt (a
#            const Graph's lazy index shared by workers, sweeps, the CPU backend's thread pool, runs on every device at
#            once, run-and-compare), building only their targets. UBSan rides along in the same build (GCC instruments
#            both in one compile); cold, it about doubles that build's CPU (measured 22 against 11 CPU-minutes for
#            its 235 steps), which ccache makes a one-off.
#   asan-ci: AddressSanitizer + UndefinedBehaviorSanitizer (with libstdc++'s bounds assertions) over the Qt-free code
#            (model, engine, use cases, CLI) and every test of it, but the long report-only ones (ONNX conformance,
#            packaging, the README run, style).
# Why not the GUI: Qt is not built with the sanitizers here, its tests drive widgets through an uninstrumented
# library, and a sanitizer build of ui/ and of the CUDA/Vulkan plugins would double CI's time on two cores; the
# GUI's threads go through the same use cases and engine code that these runs cover.
# Both build at -O1 -g1: line tables are enough for the reports, and less optimisation and debug info is less to
# compile on two cores.
#
# A time budget (COSTSCOPE_SANITIZER_BUDGET_S seconds for each stage; none when unset or 0), so that CI's hour holds
# when the compiler cache is cold (asan-ci's cold build is about 65 CPU-minutes): the stage builds its tests' targets
# one after the other while the budget lasts, runs the tests whose targets were built, and CTest stops at the budget's
# end. What the budget left out is printed by name (not built, not run, stopped) and does not fail the stage; a test
# that ran and failed does. With a warm cache (.ci/run keeps ccache in CI's HOME) everything fits.
# Each stage prints its wall time and what it skipped.
# usage: scripts/test_sanitizers.sh [asan-ci] [tsan]   (both when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
[ "${#stages[@]}" -gt 0 ] || stages=(asan-ci tsan)
export QT_QPA_PLATFORM=offscreen
budget=${COSTSCOPE_SANITIZER_BUDGET_S:-0}
status=0
for preset in "${stages[@]}"; do
  case "$preset" in
  asan-ci | tsan) ;;
  *) echo "test_sanitizers: unknown stage '$preset' (asan-ci or tsan)"; exit 2 ;;
  esac
  start=$SECONDS
  deadline=$((budget > 0 ? start + budget : 0))
  left() { echo $((deadline - SECONDS)); }
  cmake --preset "$preset" >/dev/null
  # The preset's tests; a Qt Test binary's target is named for it (model/test_ir: model_test_ir), the others (scripts)
  # need no target of their own.
  mapfile -t tests < <(ctest --preset "$preset" -N | sed -nE 's|^ *Test +#[0-9]+: (.*)$|\1|p')
  [ "${#tests[@]}" -gt 0 ] || { echo "test_sanitizers: $preset has no tests"; exit 1; }
  target_of() { [[ "$1" =~ ^[a-z]+/test_[a-z0-9_]+$ ]] && echo "${1//\//_}" || true; }
  built=() unbuilt=()
  if [ "$deadline" -eq 0 ]; then
    targets=()
    if [ "$preset" = tsan ]; then
      for t in "${tests[@]}"; do
        target=$(target_of "$t")
        [ -z "$target" ] || targets+=("$target")
      done
      targets=(--target "${targets[@]}")
    fi
    cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
    built=("${tests[@]}")
  else
    # Building stops at two thirds of the budget, so that what was built also runs. The CLI comes first: tests run it
    # as a program (no build dependency names it), and without it they would fail for want of it, not of a bug.
    build_left() { echo $((start + budget * 2 / 3 - SECONDS)); }
    cli_built=0
    if [ "$(build_left)" -gt 0 ]; then
      rc=0
      timeout --signal=INT "$(build_left)" cmake --build --preset "$preset" -j "$(nproc)" --target costscope-cli || rc=$?
      if [ "$rc" -eq 0 ]; then
        cli_built=1
      elif [ "$rc" -ne 124 ] && [ "$rc" -ne 130 ]; then
        exit "$rc" # a compile error: the build is broken, not out of time
      fi
    fi
    # One target at a time, so that a cold cache that runs out of budget leaves whole tests built, not half of each.
    for t in "${tests[@]}"; do
      target=$(target_of "$t")
      if [ -z "$target" ]; then
        built+=("$t")
        continue
      elif [ "$cli_built" -eq 0 ] || [ "$(build_left)" -le 0 ]; then
        unbuilt+=("$t")
        continue
      fi
      rc=0
      timeout --signal=INT "$(build_left)" cmake --build --preset "$preset" -j "$(nproc)" --target "$target" || rc=$?
      if [ "$rc" -eq 0 ]; then
        built+=("$t")
      elif [ "$rc" -eq 124 ] || [ "$rc" -eq 130 ]; then
        unbuilt+=("$t")
      else
        exit "$rc" # a compile error: the build is broken, not out of time
      fi
    done
  fi
  built_at=$SECONDS
  log="$PWD/build/$preset/ctest-output.log" junit="$PWD/build/$preset/ctest-junit.xml"
  rm -f "$log" "$junit"
  stopped=() unrun=()
  if [ "${#built[@]}" -gt 0 ]; then
    only=()
    if [ "$deadline" -ne 0 ]; then
      [ "$(left)" -gt 0 ] || unrun=("${built[@]}")
      names=$(printf '%s\n' "${built[@]}" | sed 's/[^A-Za-z0-9_/-]/\\&/g' | paste -sd '|')
      only=(-R "^($names)\$" --stop-time "$(date -d "+$(left) seconds" +%H:%M:%S)")
    fi
    if [ "${#unrun[@]}" -eq 0 ]; then
      rc=0
      ctest --preset "$preset" -j "$(nproc)" "${only[@]}" --output-log "$log" --output-junit "$junit" \
        --test-output-size-passed 8000000 || rc=$?
      scripts/skipped_tests.sh "$log" "$junit" "$preset"
      if [ "$rc" -ne 0 ]; then
        # CTest kills the test that runs at --stop-time (a Timeout) and starts no more: those are the budget's, not
        # findings. Any other failure is.
        mapfile -t failed < <(sed -nE 's/^[[:space:]]*[0-9]+ - (.*) \((.*)\)$/\1\t\2/p' "$log" | grep -v 'Skipped$' || true)
        for f in "${failed[@]}"; do
          if [ "$deadline" -ne 0 ] && [ "${f#*$'\t'}" = Timeout ] && [ "$(left)" -le 5 ]; then
            stopped+=("${f%%$'\t'*}")
          else
            status=1
          fi
        done
        [ "${#failed[@]}" -gt 0 ] || status=1
      fi
      if [ "$deadline" -ne 0 ]; then
        for t in "${built[@]}"; do
          grep -qF "name=\"$t\"" "$junit" 2>/dev/null || unrun+=("$t")
        done
      fi
    fi
  fi
  echo
  echo "==== $preset: ${#tests[@]} tests; ${#built[@]} built (or scripts, which need no build), $((${#built[@]} - ${#unrun[@]})) ran ===="
  if [ "$deadline" -ne 0 ]; then
    echo "  budget: $budget s"
    [ "${#unbuilt[@]}" -eq 0 ] || echo "  NOT BUILT within the budget (${#unbuilt[@]}): ${unbuilt[*]}"
    [ "${#unrun[@]}" -eq 0 ] || echo "  NOT RUN within the budget (${#unrun[@]}): ${unrun[*]}"
    [ "${#stopped[@]}" -eq 0 ] || echo "  STOPPED by the budget's end (${#stopped[@]}): ${stopped[*]}"
  fi
  echo "$preset: $((SECONDS - start)) s wall ($((built_at - start)) s configure and build, $((SECONDS - built_at)) s tests)"
done
exit "$status"
