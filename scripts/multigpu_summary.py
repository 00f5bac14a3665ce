#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarises `costscope-cli run --device all --json` outputs: per file, the isolated spread between GPUs of one
model (issue 24's target: within 5 %) and each GPU's contention (concurrent / isolated - 1) or its error.
Usage: multigpu_summary.py RUN.json..."""
import json
import os
import sys


def main():
    print("--- summary: isolated spread between GPUs of one model (target <= 5 %), contention per GPU")
    for path in sys.argv[1:]:
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError):
            continue
        if "devices" not in run:
            continue
        spread = ", ".join(f"{s['model']} x{s['devices']}: {s['isolated'] * 100:.1f} %"
                           + (" ok" if s["isolated"] <= 0.05 else " OVER 5 %") for s in run.get("spread", []))
        contention = ", ".join(f"{d['index']}: {d['contention'] * 100:+.1f} %" if "contention" in d
                               else f"{d['index']}: {d.get('error', '-')}" for d in run["devices"])
        print(f"{os.path.basename(path)}: spread {spread or '-'}; contention {contention}")


if __name__ == "__main__":
    main()
