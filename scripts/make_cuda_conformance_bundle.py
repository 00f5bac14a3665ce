#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Packs the ONNX conformance cases and light CNNs for the GPU machine, which has no ONNX importer.

Each model is converted to RLX HIR JSON with a costscope-cli built with ONNX import; graph inputs and expected
first outputs are written as raw little-endian bytes, and manifest.json lists per case the graph file, the inputs
(name, dims, dtype, file; none for the light CNNs, which get arange(n)/n), the initializer values that RLX
JSON does not carry (params: name, file) and the expected output.
bench_cuda_backend reads the bundle (its third argument).

Usage: make_cuda_conformance_bundle.py COSTSCOPE_CLI ONNX_DATA_DIR OUT_DIR
"""
import json
import subprocess
import sys
from pathlib import Path

import onnx
from onnx import numpy_helper

DTYPES = {1: "F32", 2: "U8", 3: "I8", 6: "I32", 7: "I64", 9: "Bool", 11: "F64"}


def tensor_file(pb, out):
    t = onnx.TensorProto()
    t.ParseFromString(pb.read_bytes())
    if t.data_type not in DTYPES:
        raise ValueError(f"{pb}: element type {t.data_type} not packed")
    arr = numpy_helper.to_array(t)
    out.write_bytes(arr.astype(arr.dtype.newbyteorder("<")).tobytes())
    return {"dims": list(arr.shape), "dtype": DTYPES[t.data_type], "file": out.name}


def convert(cli, model, graph_out):
    r = subprocess.run([cli, "convert", str(model), str(graph_out)], capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr or r.stdout).strip().splitlines()[-1][:300]


def main():
    cli, data, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    cases = []
    for case in sorted((data / "node").glob("*/*")):
        name = f"{case.parent.name}/{case.name}"
        tag = name.replace("/", "__")
        entry = {"name": name, "graph": f"{tag}.hir.json"}
        error = convert(cli, case / "model.onnx", out / entry["graph"])
        try:
            if error:
                raise ValueError(error)
            model = onnx.load(str(case / "model.onnx"), load_external_data=False)
            inits = {t.name for t in model.graph.initializer}
            names = [i.name for i in model.graph.input if i.name not in inits]
            ds = case / "test_data_set_0"
            entry["inputs"] = []
            for i, n in enumerate(names):
                info = tensor_file(ds / f"input_{i}.pb", out / f"{tag}.in{i}.raw")
                entry["inputs"].append({"name": n, **info})
            entry["output"] = tensor_file(ds / "output_0.pb", out / f"{tag}.out.raw")
            # RLX JSON keeps Constant values but not Param (initializer) values: they travel beside the graph.
            entry["params"] = []
            for i, t in enumerate(model.graph.initializer):
                raw = out / f"{tag}.param{i}.raw"
                arr = numpy_helper.to_array(t)
                raw.write_bytes(arr.astype(arr.dtype.newbyteorder("<")).tobytes())
                entry["params"].append({"name": t.name, "file": raw.name})
        except Exception as e:  # recorded in the manifest: the driver reports it as not run
            entry = {"name": name, "skip": str(e)[:300]}
        cases.append(entry)
    for model in sorted((data / "light").glob("*.onnx")):
        entry = {"name": f"light/{model.stem}", "graph": f"{model.stem}.hir.json", "inputs": None}
        error = convert(cli, model, out / entry["graph"])
        if error:
            entry = {"name": entry["name"], "skip": error}
        else:
            entry["output"] = tensor_file(model.with_name(model.stem + "_output_0.pb"), out / f"{model.stem}.out.raw")
        cases.append(entry)
    (out / "manifest.json").write_text(json.dumps(cases, indent=1))
    print(f"{len(cases)} cases, {sum('skip' in c for c in cases)} not packed")


if __name__ == "__main__":
    main()
