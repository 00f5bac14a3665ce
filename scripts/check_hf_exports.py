#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Loads, analyses and runs the exports of export_hf_models.py with costscope-cli, against PyTorch's output.

For each export listed in DIR/summary.json:
  info      costscope-cli info (load alone), wall time: the load target is < 2 s
  analyze   costscope-cli analyze, wall time and exit status
  run       costscope-cli run --backend B --input ... --reference NAME.ref.pb --json for each backend asked for
            (cpu only for the small and tiny exports and full ones of at most --cpu-max-params parameters), and for bf16 also against NAME.ref_fp32math.pb
Tolerances: fp32 rtol 1e-3 (atol 1e-4 for outputs near zero); bf16 rtol/atol from --bf16-rtol and --bf16-atol
(see docs/precision.md for why). Writes OUT/hf_checks.json and prints one line per step.

Usage: check_hf_exports.py COSTSCOPE_CLI DIR OUT [--backends cpu,cuda] [--cpu-max-params 2e8] [--timeout 300]
"""
import argparse
import json
import subprocess
import time
from pathlib import Path


def call(cmd, timeout):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        code, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        code, stdout, stderr = "timeout", "", f"timed out after {timeout} s"
    return {"exit": code, "wall_s": round(time.perf_counter() - t0, 3), "stderr": stderr[-1500:]}, stdout


def run_one(cli, d, m, backend, reference, rtol, atol, timeout):
    cmd = [cli, "run", str(d / m["files"]["onnx"]), "--backend", backend, "--runs", "1", "--warmup", "1",
           "--no-host-probe", "--json", "--reference", str(d / reference), "--rtol", str(rtol), "--atol", str(atol)]
    for f in m["files"]["inputs"]:
        cmd += ["--input", str(d / f)]
    r, stdout = call(cmd, timeout)
    r["reference"] = reference
    try:
        j = json.loads(stdout)
        r["check"] = j.get("check")
        r["measured_ms"] = j.get("measured_ms", j.get("total_ms"))
    except ValueError:
        r["stdout"] = stdout[-800:]
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cli")
    p.add_argument("dir")
    p.add_argument("out")
    p.add_argument("--backends", default="cpu,cuda")
    p.add_argument("--cpu-max-params", type=float, default=0, help="the CPU backend on full-size exports this small")
    p.add_argument("--bf16-rtol", type=float, default=2e-2)
    p.add_argument("--bf16-atol", type=float, default=2e-2)
    p.add_argument("--timeout", type=int, default=300)
    a = p.parse_args()
    d = Path(a.dir)
    summary = json.loads((d / "summary.json").read_text())
    results = []
    for m in summary["models"]:
        if "error" in m:
            results.append({"name": m["name"], "export_error": m["error"]})
            continue
        onnx = str(d / m["files"]["onnx"])
        r = {"name": m["name"], "exporter": m["exporter"], "opset": m["opset"]}
        r["info"], _ = call([a.cli, "info", onnx], a.timeout)
        r["analyze"], _ = call([a.cli, "analyze", onnx], a.timeout)
        print(m["name"], "info", r["info"]["exit"], r["info"]["wall_s"], "s; analyze", r["analyze"]["exit"],
              r["analyze"]["wall_s"], "s", r["analyze"]["stderr"][-300:].strip(), flush=True)
        bf16 = m["dtype"] == "bf16"
        rtol, atol = (a.bf16_rtol, a.bf16_atol) if bf16 else (1e-3, 1e-4)
        refs = [m["files"]["reference"]] + ([m["files"]["reference_fp32math"]] if bf16 else [])
        r["runs"] = []
        for backend in a.backends.split(","):
            if backend == "cpu" and m["size"] == "full" and m["parameters"] > a.cpu_max_params:
                continue
            for ref in refs:
                x = run_one(a.cli, d, m, backend, ref, rtol, atol, a.timeout)
                x["backend"] = backend
                r["runs"].append(x)
                print(m["name"], backend, "vs", ref, "exit", x["exit"], x["wall_s"], "s", json.dumps(x.get("check")),
                      x["stderr"][-400:].strip(), flush=True)
        results.append(r)
        Path(a.out, "hf_checks.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
