#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Grouped and depthwise convolutions of ShuffleNet's shapes on the CUDA backend against cuDNN (PyTorch's conv2d,
# fp32, TF32 off) for the same layer, in the same run on the same GPU. Each layer is written as a one-Conv RLX HIR
# JSON graph and run with `costscope-cli run --backend cuda --per-node --json`; cuDNN is timed with CUDA events
# (median of 200 after 20 warm-up calls). Target (issue: a CUDA engine that fuses): within 2x of cuDNN.
# usage: device_grouped_conv.py COSTSCOPE_CLI
import json
import statistics
import subprocess
import sys
import tempfile

import torch

LAYERS = [  # name, N, C_in, C_out, H, kernel, stride, groups
    ("dw3x3 544 14x14", 1, 544, 544, 14, 3, 1, 544),
    ("dw3x3 544 14x14 b8", 8, 544, 544, 14, 3, 1, 544),
    ("dw3x3 272 28x28 s2", 1, 272, 272, 28, 3, 2, 272),
    ("1x1 g4 544 14x14", 1, 544, 544, 14, 1, 1, 4),
    ("1x1 g4 544 14x14 b8", 8, 544, 544, 14, 1, 1, 4),
]


def static(dims):
    return {"dims": [{"Static": d} for d in dims], "dtype": "F32"}


def graph(n, cin, cout, h, k, s, g):
    pad = k // 2
    out = (h + 2 * pad - k) // s + 1
    return {
        "name": "conv",
        "nodes": [
            {"id": 0, "op": {"Input": {"name": "x"}}, "inputs": [], "shape": static([n, cin, h, h]), "name": None},
            {"id": 1, "op": {"Param": {"name": "w"}}, "inputs": [], "shape": static([cout, cin // g, k, k]),
             "name": None},
            {"id": 2, "op": {"Mir": {"Conv": {"kernel_size": [k, k], "stride": [s, s], "padding": [pad, pad],
                                              "dilation": [1, 1], "groups": g}}},
             "inputs": [0, 1], "shape": static([n, cout, out, out]), "name": None},
        ],
        "outputs": [2],
    }


def cudnn_ms(n, cin, cout, h, k, s, g):
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    x = torch.randn(n, cin, h, h, device="cuda")
    w = torch.randn(cout, cin // g, k, k, device="cuda")
    for _ in range(20):
        torch.nn.functional.conv2d(x, w, stride=s, padding=k // 2, groups=g)
    times = []
    for _ in range(200):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        torch.nn.functional.conv2d(x, w, stride=s, padding=k // 2, groups=g)
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def ours_ms(cli, layer):
    with tempfile.NamedTemporaryFile("w", suffix=".hir.json", delete=False) as f:
        json.dump(graph(*layer), f)
    r = subprocess.run([cli, "run", f.name, "--backend", "cuda", "--runs", "200", "--warmup", "20", "--per-node",
                        "--reference", "cpu", "--json"], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        return None, None, r.stderr.strip()
    j = json.loads(r.stdout)
    node = next(n for n in j["per_node"] if n["op"] == "Conv")
    return j["whole"]["median_ns"] / 1e6, node["measured_ns"] / 1e6, ""


def main():
    cli = sys.argv[1]
    print(f"GPU: {torch.cuda.get_device_name()}  (cuDNN {torch.backends.cudnn.version()}, fp32, TF32 off)")
    print(f"{'layer':22} {'ours whole ms':>14} {'ours node ms':>13} {'cuDNN ms':>9} {'whole/cuDNN':>12}")
    for name, *layer in LAYERS:
        whole, node, err = ours_ms(cli, layer)
        ref = cudnn_ms(*layer)
        if whole is None:
            print(f"{name:22} failed: {err}")
            continue
        print(f"{name:22} {whole:14.4f} {node:13.4f} {ref:9.4f} {whole / ref:12.2f}")


if __name__ == "__main__":
    main()
