#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Opens a `costscope-cli run --trace` file in Perfetto's trace processor, as Perfetto's UI would, and checks what it
read: no import errors, one process for the run and one per model, every timed node a slice on each, nested in its
scope's slice. Needs the trace processor that scripts/fetch_perfetto.sh installs into .perfetto/; without it the
test skips (exit 77) and says why."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--perfetto", required=True, help="the folder scripts/fetch_perfetto.sh fills")
    a = ap.parse_args()
    shell = os.path.join(a.perfetto, "trace_processor_shell")
    python = os.path.join(a.perfetto, "venv", "bin", "python")
    if not (os.access(shell, os.X_OK) and os.access(python, os.X_OK)):
        print(f"SKIP: no Perfetto trace processor in {a.perfetto}: run scripts/fetch_perfetto.sh (needs network once)")
        return SKIP
    if os.path.realpath(sys.prefix) != os.path.realpath(os.path.join(a.perfetto, "venv")):
        os.execv(python, [python, __file__] + sys.argv[1:])
    from perfetto.trace_processor import TraceProcessor, TraceProcessorConfig

    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "run.trace.json")
        run = subprocess.run([a.cli, "run", a.graph, "--runs", "1", "--warmup", "0", "--no-host-probe", "--json",
                              "--trace", trace], capture_output=True, text=True, check=True)
        timed = len(json.loads(run.stdout)["per_node"])
        tp = TraceProcessor(trace=trace, config=TraceProcessorConfig(bin_path=shell))
        try:
            errors = [(r.name, r.value) for r in tp.query(
                "select name, value from stats where severity in ('error', 'data_loss') and value > 0")]
            assert not errors, f"trace processor reports {errors}"
            processes = sorted(r.name for r in tp.query("select name from process where name is not null"))
            assert any(p.startswith("measured: cpu:0") for p in processes), processes
            assert any(p.startswith("predicted: costscope") for p in processes), processes
            assert any(p.startswith("predicted: rlx") for p in processes), processes
            nodes = list(tp.query("select s.depth as depth, p.category as parent from slice s "
                                  "left join slice p on s.parent_id = p.id where s.category = 'node'"))
            assert len(nodes) == 3 * timed, f"{len(nodes)} node slices for {timed} timed nodes on 3 processes"
            with_args = next(iter(tp.query(
                "select count(*) as n from slice s join args a using (arg_set_id) "
                "where s.category = 'node' and a.key = 'args.predicted_ns.costscope'"))).n
            assert with_args == 3 * timed, f"{with_args} node slices carry args.predicted_ns.costscope"
            nested = [n for n in nodes if n.depth > 0]
            assert nested and all(n.parent == "scope" for n in nested), "node slices are not nested in scopes"
        finally:
            tp.close()
    print(f"ok: {timed} nodes on {len(processes)} processes, {len(nested)} slices nested in scopes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
