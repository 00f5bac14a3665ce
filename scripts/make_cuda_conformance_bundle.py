#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Packs the ONNX conformance cases and light CNNs for the GPU machine, which has no ONNX importer.

Each model is converted to RLX HIR JSON with a costscope-cli built with ONNX import; graph inputs and expected
first outputs are written as raw little-endian bytes, and manifest.json lists per case the graph file, the inputs
(name, dims, dtype, file; none for the light CNNs, which get arange(n)/n), the initializer values that RLX
JSON does not carry (params: name, file) and the expected output.
bench_cuda_backend reads the bundle (its third argument).

Given TRANSFORMER_DIR, gpt2_12l.onnx and bert_12l.onnx from it are packed too (cases "transformers/..."), with all
their initializers, input_ids drawn from the vocabulary (seed 0, batch 2 as exported) and, where ONNX Runtime runs
them on this machine, its first output as the expected one (without it the bench compares with the CPU backend
only).

Usage: make_cuda_conformance_bundle.py COSTSCOPE_CLI ONNX_DATA_DIR OUT_DIR [TRANSFORMER_DIR]
"""
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
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


def write_array(arr, out):
    out.write_bytes(arr.astype(arr.dtype.newbyteorder("<")).tobytes())
    names = {"float32": "F32", "uint8": "U8", "int8": "I8", "int32": "I32", "int64": "I64", "bool": "Bool",
             "float64": "F64"}
    return {"dims": list(arr.shape), "dtype": names[arr.dtype.name], "file": out.name}


def pack_params(model, out, tag):
    params = []
    for i, t in enumerate(model.graph.initializer):
        raw = out / f"{tag}.param{i}.raw"
        write_array(numpy_helper.to_array(t), raw)
        params.append({"name": t.name, "file": raw.name})
    return params


def ort_output(model, feeds):
    """The first output of ONNX Runtime (CPU provider) on the model, or None where it cannot run it."""
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    m = onnx.ModelProto()
    m.CopyFrom(model)
    # The exporter writes opset 17 but uses Split's num_outputs, an opset-18 attribute (as in
    # device_torch_baseline.py); none of the other ops in these models changed between 17 and 18.
    for imp in m.opset_import:
        if imp.domain in ("", "ai.onnx") and imp.version < 18:
            imp.version = 18
    del m.graph.value_info[:]
    try:
        sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        return sess.run(None, feeds)[0]
    except Exception as e:  # reported; the bench then compares with the CPU backend only
        print(f"ONNX Runtime cannot run {model.graph.name}: {str(e)[:200]}")
        return None


def pack_transformers(cli, models, out):
    import numpy as np

    cases = []
    for name in ("gpt2_12l", "bert_12l"):
        tag = f"transformers__{name}"
        # 12 layers of float rounding: the bench allows |err| <= 1e-4 + 1e-3 |want| here (1e-5 + ... elsewhere).
        entry = {"name": f"transformers/{name}", "graph": f"{tag}.hir.json", "atol": 1e-4}
        error = convert(cli, models / f"{name}.onnx", out / entry["graph"])
        if error:
            cases.append({"name": entry["name"], "skip": error})
            continue
        model = onnx.load(str(models / f"{name}.onnx"))
        inits = {t.name for t in model.graph.initializer}
        rng = np.random.default_rng(0)
        feeds = {}
        entry["inputs"] = []
        for i, vi in enumerate(i for i in model.graph.input if i.name not in inits):
            dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
            feeds[vi.name] = rng.integers(0, 1000, size=dims, dtype=np.int64)
            entry["inputs"].append({"name": vi.name, **write_array(feeds[vi.name], out / f"{tag}.in{i}.raw")})
        entry["params"] = pack_params(model, out, tag)
        expected = ort_output(model, feeds)
        if expected is not None:
            entry["output"] = write_array(np.asarray(expected), out / f"{tag}.out.raw")
        cases.append(entry)
    return cases


def main():
    cli, data, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    cases = []
    node_cases = sorted((data / "node").glob("*/*"))
    tags = [f"{c.parent.name}__{c.name}" for c in node_cases]
    # The conversions are separate processes: run them side by side, then pack in order.
    with ThreadPoolExecutor(max_workers=8) as pool:
        errors = list(pool.map(lambda ct: convert(cli, ct[0] / "model.onnx", out / f"{ct[1]}.hir.json"),
                               zip(node_cases, tags)))
    for case, tag, error in zip(node_cases, tags, errors):
        name = f"{case.parent.name}/{case.name}"
        entry = {"name": name, "graph": f"{tag}.hir.json"}
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
            entry["params"] = pack_params(model, out, tag)
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
    if len(sys.argv) > 4:
        cases += pack_transformers(cli, Path(sys.argv[4]), out)
    (out / "manifest.json").write_text(json.dumps(cases, indent=1))
    print(f"{len(cases)} cases, {sum('skip' in c for c in cases)} not packed")


if __name__ == "__main__":
    main()
