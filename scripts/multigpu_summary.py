#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarises `costscope-cli run --device all --json` outputs: per file, the isolated spread between GPUs of one
model (issue 24's target: within 5 %), each GPU's contention (concurrent / isolated - 1) or its error, and each GPU's
Costscope prediction error (the plan as it ran: fused kernels priced as such where the run fused any).
With --evaluate: per `costscope-cli evaluate --json` output (one per GPU), the models' whole-graph and node shares.
Usage: multigpu_summary.py RUN.json...
       multigpu_summary.py --evaluate EVALUATE.json..."""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def predicted_error(device):
    p = device.get("predicted", {})
    c = p.get("costscope_fused") or p.get("costscope")
    return None if c is None else c["error"]


def runs(paths):
    print("--- summary: isolated spread between GPUs of one model (target <= 5 %), contention, prediction error")
    for path in paths:
        run = load(path)
        if not run or "devices" not in run:
            continue
        spread = ", ".join(f"{s['model']} x{s['devices']}: {s['isolated'] * 100:.1f} %"
                           + (" ok" if s["isolated"] <= 0.05 else " OVER 5 %") for s in run.get("spread", []))
        contention = ", ".join(f"{d['index']}: {d['contention'] * 100:+.1f} %" if "contention" in d
                               else f"{d['index']}: {d.get('error', '-')}" for d in run["devices"])
        errors = ", ".join(f"{d['index']}: {predicted_error(d) * 100:+.1f} %" if predicted_error(d) is not None
                           else f"{d['index']}: -" for d in run["devices"])
        fused = max((d.get("fused_kernels", 0) for d in run["devices"]), default=0)
        print(f"{os.path.basename(path)}: spread {spread or '-'}; contention {contention}; "
              f"predicted error {errors} ({fused} fused kernels)")


def evaluations(paths):
    print("--- evaluate on each GPU (leave-one-family-out)")
    for path in paths:
        r = load(path)
        if not r or "models" not in r:
            print(f"{os.path.basename(path)}: no result")
            continue
        for m in r["models"]:
            g, n = m["graphs"], m["nodes"]
            print(f'{os.path.basename(path)} {r["device"]} {m["model"]:27s} graphs {g["count"]:4d} '
                  f'±10% {100 * g["within_10"]:5.1f} ±25% {100 * g["within_25"]:5.1f} MAPE {g["mape"]:6.1f} | '
                  f'nodes {n["count"]:5d} ±25% {100 * n["within_25"]:5.1f}')


if __name__ == "__main__":
    if sys.argv[1:2] == ["--evaluate"]:
        evaluations(sys.argv[2:])
    else:
        runs(sys.argv[1:])
