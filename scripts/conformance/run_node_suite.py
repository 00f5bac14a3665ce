# SPDX-License-Identifier: MIT
"""Runs the ONNX node conformance suite through `costscope-cli run` and ONNX Runtime, and reports both.

Each case is run as a user would: `costscope-cli run CASE/model.onnx --backend B --input input_0.pb ...
--reference output_0.pb --atol 1e-5` (one timed run, no warm-up, no host probe), one process per case so that a
crash or a hang is caught and counted instead of ending the report. The exit code classifies the case: 0 pass,
4 mismatch, 3 unsupported (the first error line says what is missing), a signal a crash, the time limit a hang.
Starting the CLI costs about 0.2 s of CPU (its GPU libraries), 6 minutes of CPU for the suite; with --runner,
tests/conformance/onnx_node_runner runs the same steps in children forked from one loaded process instead (the
default of the CTest target; --runner '' compares with the CLI itself), or for CUDA, whose context does not survive
fork(), in worker processes that each create the backend once (--isolation).
ONNX Runtime (CPU provider) runs the same cases in a worker process of its own, compared with the same tolerance on
the same first output.

This is a benchmark-style report, not a gate on counts: it fails (exit 1) only when a case crashes or hangs, or
when a case listed in the baseline (the committed list of passing cases) no longer passes. When every case of the
whole suite (no --filter) is unsupported, nine in ten or more for one and the same cause, the backend itself is
unavailable: the report says so and exits 77 (skipped).
--update-baseline rewrites the baseline with the cases that pass now.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

RTOL = 1e-3  # costscope-cli run's default, kept for both runners
CRASH, HANG, NOT_RUN = "crash", "hang", "not run"


def case_inputs(case):
    data = case / "test_data_set_0"
    inputs = sorted(data.glob("input_*.pb"), key=lambda p: int(p.stem.split("_")[1]))
    return inputs, data / "output_0.pb"


def reason_of(stderr):
    """The error line of a failed run without the node-specific prefix, so that equal causes group together."""
    lines = [line for line in stderr.strip().splitlines() if line.strip() and "warning:" not in line]
    if not lines:
        return "no message"
    text = lines[-1]
    for line in lines:  # the first error line names the cause; later ones are context
        if "error" in line.lower() or "cannot" in line or "unsupported" in line or "not " in line:
            text = line
            break
    return tidy(text)


def tidy(reason):
    """A failure reason without the node-specific prefix, so that equal causes group together."""
    reason = re.sub(r"^.*?model\.onnx:\s*", "", reason)
    reason = re.sub(r"node \d+ \([^)]*\):\s*", "", reason)
    reason = re.sub(r"ONNX node #\d+ '[^']*' ", "ONNX node ", reason)
    return reason.strip()[:200]


def run_with_runner(runner, backend, cases, atol, jobs, timeout, isolation, deadline):
    """Every case through onnx_node_runner (each isolated in a forked child or a worker process, see --isolation).
    The runner is killed `deadline` seconds from now (0: never); the cases it had not reported then are not run."""
    cmd = [runner, "--backend", backend, "--atol", str(atol), "--rtol", str(RTOL), "--jobs", str(jobs),
           "--timeout", str(timeout), "--isolation", isolation] + [str(c) for c in cases]
    expired = threading.Event()
    results = {}
    # stderr goes to a file: a pipe of its own could fill while stdout is read. The runner's children and workers
    # end with it (PR_SET_PDEATHSIG).
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, errors="replace")
        timer = threading.Timer(deadline, lambda: (expired.set(), proc.kill())) if deadline else None
        if timer:
            timer.start()
        for line in proc.stdout:
            name, result, why = (line.rstrip("\n").split("\t", 2) + ["", ""])[:3]
            results[name] = (result, tidy(why))
        returncode = proc.wait()
        if timer:
            timer.cancel()
        err.seek(0)
        stderr = err.read()
    for case in cases:
        if case.name in results:
            continue
        if expired.is_set():
            results[case.name] = (NOT_RUN, "not finished within --deadline")
        else:
            results[case.name] = (CRASH, f"the runner ended (status {returncode}) before this case: "
                                         f"{stderr.strip()[-200:]}")
    return results


def run_ours(cli, backend, case, atol, timeout):
    inputs, expected = case_inputs(case)
    cmd = [cli, "run", str(case / "model.onnx"), "--backend", backend, "--runs", "1", "--warmup", "0",
           "--no-host-probe", "--reference", str(expected), "--atol", str(atol), "--rtol", str(RTOL)]
    for i in inputs:
        cmd += ["--input", str(i)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return HANG, f"no result after {timeout} s"
    if r.returncode == 0:
        return "pass", ""
    if r.returncode < 0:
        return CRASH, f"signal {-r.returncode}"
    if r.returncode == 4:
        return "mismatch", reason_of(r.stderr)
    return "unsupported", reason_of(r.stderr)


ORT_WORKER = r'''
import json, sys, warnings
import numpy as np
import onnx
from onnx import numpy_helper
import onnxruntime as ort
warnings.simplefilter("ignore")
ort.set_default_logger_severity(4)
atol, rtol = float(sys.argv[1]), float(sys.argv[2])
opts = ort.SessionOptions()
opts.intra_op_num_threads = 1
def close(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if want.dtype.kind in "OSU":
        return bool(np.array_equal(got, want))
    g, w = got.astype(np.float64), want.astype(np.float64)
    return bool(np.all((np.abs(g - w) <= atol + rtol * np.abs(w)) | (g == w) | (np.isnan(g) & np.isnan(w))))
for line in sys.stdin:
    case = json.loads(line)
    try:
        model = onnx.load(case["model"])
        feeds = {}
        for info, path in zip(model.graph.input, case["inputs"]):
            t = onnx.TensorProto()
            t.ParseFromString(open(path, "rb").read())
            feeds[info.name] = numpy_helper.to_array(t)
        sess = ort.InferenceSession(case["model"], opts, providers=["CPUExecutionProvider"])
        got = sess.run(None, feeds)[0]
        t = onnx.TensorProto()
        t.ParseFromString(open(case["expected"], "rb").read())
        result = "pass" if close(got, numpy_helper.to_array(t)) else "mismatch"
    except Exception as e:
        result = "unsupported"
    print(json.dumps({"case": case["name"], "result": result}), flush=True)
'''


def run_ort(cases, atol):
    """ONNX Runtime's result per case name; a crashed worker is restarted after the case it died on."""
    results = {}
    pending = list(cases)
    while pending:
        # The work list goes through a file: a pipe both ways deadlocks once both buffers fill.
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as todo:
            for case in pending:
                inputs, expected = case_inputs(case)
                todo.write(json.dumps({"name": case.name, "model": str(case / "model.onnx"),
                                       "inputs": [str(i) for i in inputs], "expected": str(expected)}) + "\n")
        with open(todo.name) as work:
            proc = subprocess.Popen([sys.executable, "-c", ORT_WORKER, str(atol), str(RTOL)], stdin=work,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            for line in proc.stdout:
                row = json.loads(line)
                results[row["case"]] = row["result"]
            proc.wait()
        os.unlink(todo.name)
        while pending and pending[0].name in results:
            pending.pop(0)
        if pending:  # the worker died on pending[0]
            results[pending.pop(0).name] = CRASH
    return results


def runner_kind(args):
    worker = args.isolation == "worker" or (args.isolation == "auto" and args.backend != "cpu")
    return "runner, worker processes" if worker else "runner, forked children"


def ort_available():
    r = subprocess.run([sys.executable, "-c", "import onnxruntime; print(onnxruntime.__version__)"],
                       capture_output=True, text=True)
    return (r.stdout.strip(), "") if r.returncode == 0 else (None, (r.stderr.strip().splitlines() or ["?"])[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cli", help="the costscope-cli binary (one process per case)")
    p.add_argument("--runner", help="tests/conformance/onnx_node_runner (one process, a forked child or a worker "
                   "process per case)")
    p.add_argument("--isolation", choices=("auto", "fork", "worker"), default="auto",
                   help="the runner's isolation of a case: a child forked from the loaded runner, or worker processes "
                        "that each create the backend once (auto: fork for cpu; worker otherwise: a CUDA context does not "
                        "survive fork(), and forked Vulkan children each make their device again)")
    p.add_argument("--suite", required=True, help="the generated suite: SUITE/<case>/model.onnx")
    p.add_argument("--backend", default="cpu")
    p.add_argument("--baseline", help="committed list of cases that pass (one name a line, '#' comments); "
                   "default tests/conformance/onnx_node_BACKEND_passing.txt")
    p.add_argument("--update-baseline", action="store_true", help="write the cases passing now to --baseline")
    p.add_argument("--atol", type=float, default=1e-5)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--timeout", type=float, default=60, help="seconds one case may take before it counts as a hang")
    p.add_argument("--filter", default="", help="only cases whose name contains this")
    p.add_argument("--deadline", type=float, default=0,
                   help="seconds after which cases not started (with --runner: not finished) are reported as not run "
                        "(0: none), so that a run under an outer time limit still prints its report")
    p.add_argument("--no-ort", action="store_true", help="skip ONNX Runtime")
    p.add_argument("--results", help="write per-case results (JSON) here")
    args = p.parse_args()

    suite = Path(args.suite)
    if not args.baseline:
        root = Path(__file__).resolve().parents[2]
        args.baseline = str(root / "tests" / "conformance" / f"onnx_node_{args.backend}_passing.txt")
    cases = sorted(c for c in suite.iterdir() if (c / "model.onnx").exists() and args.filter in c.name)
    if not cases:
        print(f"CONFORMANCE SUITE MISSING: no cases in {suite}", file=sys.stderr)
        return 1
    if not args.runner and not args.cli:
        p.error("give --runner or --cli")
    started = time.monotonic()
    ort_version, ort_problem = (None, "skipped (--no-ort)") if args.no_ort else ort_available()
    with ThreadPoolExecutor(max_workers=1) as ort_pool:
        ort_future = ort_pool.submit(run_ort, cases, args.atol) if ort_version else None
        if args.runner:
            remaining = max(0.1, args.deadline - (time.monotonic() - started)) if args.deadline else 0
            ours = run_with_runner(args.runner, args.backend, cases, args.atol, args.jobs, args.timeout,
                                   args.isolation, remaining)
        else:
            done = [0]

            def one(c):
                if args.deadline and time.monotonic() - started > args.deadline:
                    return NOT_RUN, f"not started within --deadline {args.deadline:g} s"
                r = run_ours(args.cli, args.backend, c, args.atol, args.timeout)
                done[0] += 1  # the GIL makes this increment safe enough for a progress line
                if done[0] % 200 == 0:
                    print(f"conformance: {done[0]} of {len(cases)} cases run ({time.monotonic() - started:.0f} s)",
                          file=sys.stderr, flush=True)
                return r

            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                ours = dict(zip((c.name for c in cases), pool.map(one, cases)))
        ours_seconds = time.monotonic() - started
        ort = ort_future.result() if ort_future else {}
    elapsed = time.monotonic() - started

    counts = collections.Counter(result for result, _ in ours.values())
    top_cause, top_count = (collections.Counter(why for _, why in ours.values()).most_common(1) or [("", 0)])[0]
    if counts["unsupported"] == len(cases) and top_count >= 0.9 * len(cases) and not args.filter:
        # The whole suite unsupported, nearly all for one cause (the rest fail at import, before the backend): the
        # backend itself is missing (no Vulkan device, ...).
        print(f"SKIPPED: backend {args.backend} is unavailable here: {top_cause}")
        return 77
    reasons = collections.Counter(reason for result, reason in ours.values() if result == "unsupported")
    mismatches = sorted(name for name, (result, _) in ours.items() if result == "mismatch")
    crashed = sorted(name for name, (result, _) in ours.items() if result in (CRASH, HANG))
    print(f"ONNX node conformance, {len(cases)} cases from {suite}, backend {args.backend}, "
          f"atol {args.atol:g}, rtol {RTOL:g}, first output")
    print(f"costscope ({args.backend}): {counts['pass']} pass, {counts['mismatch']} mismatch, "
          f"{counts['unsupported']} unsupported, {counts[CRASH]} crash, {counts[HANG]} hang"
          + (f", {counts[NOT_RUN]} not run (deadline)" if counts[NOT_RUN] else "") + " "
          f"({ours_seconds:.0f} s, {args.jobs} jobs, {runner_kind(args) if args.runner else 'costscope-cli per case'})")
    # A CUDA pass that ran some nodes on the CPU backend's kernels (the runner names them, cuda/host_fallback.h).
    on_host = sum(1 for result, why in ours.values() if result == "pass" and why.startswith("host fallback:"))
    if on_host:
        print(f"  of the passes, {on_host} ran some node on the host (host fallback), {counts['pass'] - on_host} "
              f"ran on {args.backend} alone")
    if ort_version:
        oc = collections.Counter(ort.values())
        both = sum(1 for n in ours if ours[n][0] == "pass" and ort.get(n) == "pass")
        print(f"onnxruntime {ort_version} (CPU provider): {oc['pass']} pass, {oc['mismatch']} mismatch, "
              f"{oc['unsupported']} unsupported, {oc[CRASH]} crash; both pass: {both}")
    else:
        print(f"onnxruntime: NOT RUN ({ort_problem}); install it with scripts/conformance.sh generate")
    print(f"wall time {elapsed:.0f} s")
    print("\nmost common unsupported causes (count: cause):")
    for reason, n in reasons.most_common(40):
        print(f"  {n:4d}: {reason}")
    print(f"\nmismatches ({len(mismatches)}):")
    for name in mismatches:
        print(f"  {name}: {ours[name][1]}")

    failed = False
    if crashed:
        failed = True
        print(f"\nFAIL: {len(crashed)} case(s) crashed or hung:")
        for name in crashed:
            print(f"  {name}: {ours[name][0]} ({ours[name][1]})")
    if args.results:
        Path(args.results).write_text(json.dumps(
            {n: {"ours": r, "reason": why, "ort": ort.get(n)} for n, (r, why) in ours.items()}, indent=1))
    passing = sorted(n for n, (r, _) in ours.items() if r == "pass")
    if args.baseline and args.update_baseline and counts[NOT_RUN]:
        print(f"\nbaseline not written: {counts[NOT_RUN]} case(s) were not run (--deadline)")
        failed = True
    elif args.baseline and args.update_baseline:
        header = (f"# ONNX node conformance cases that costscope-cli run --backend {args.backend} passes "
                  f"(atol {args.atol:g}, rtol {RTOL:g}).\n# Written by scripts/conformance.sh "
                  f"--update-baseline; a case listed here that stops passing fails the test.\n")
        Path(args.baseline).write_text(header + "".join(n + "\n" for n in passing))
        print(f"\nbaseline {args.baseline}: {len(passing)} passing cases written")
    elif not Path(args.baseline).exists():
        print(f"\nno baseline {args.baseline}: regressions are not checked (--update-baseline writes it)")
    else:
        listed = [line.strip() for line in Path(args.baseline).read_text().splitlines()
                  if line.strip() and not line.startswith("#")]
        listed = [n for n in listed if args.filter in n]
        # A case the deadline left unrun is not a regression; the summary line counts them.
        lost = [n for n in listed if n in ours and ours[n][0] not in ("pass", NOT_RUN)]
        gone = [n for n in listed if n not in ours]
        new = [n for n in passing if n not in set(listed)]
        if lost or gone:
            failed = True
            print(f"\nFAIL: {len(lost) + len(gone)} case(s) of the baseline no longer pass:")
            for n in lost:
                print(f"  {n}: {ours[n][0]} ({ours[n][1]})")
            for n in gone:
                print(f"  {n}: not in the suite")
        if new:
            print(f"\n{len(new)} case(s) pass that the baseline does not list (scripts/conformance.sh "
                  f"--update-baseline adds them): {' '.join(new[:20])}{' ...' if len(new) > 20 else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
