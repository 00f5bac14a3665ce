#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes an element-wise heavy RLX HIR JSON graph: one F32[ROWS, COLS] input through a chain of DEPTH Add, Gelu,
Mul and Relu nodes. Memory-bound on any GPU, so running it on every GPU at once shows contention for what the GPUs
share (host, PCIe, power). Usage: elementwise_chain_graph.py OUT.hir.json [ROWS COLS [DEPTH]]"""
import json
import sys


def main():
    if len(sys.argv) not in (2, 4, 5):
        sys.exit(__doc__)
    out = sys.argv[1]
    rows, cols = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) >= 4 else (8192, 8192)
    depth = int(sys.argv[4]) if len(sys.argv) == 5 else 16
    shape = {"dims": [{"Static": rows}, {"Static": cols}], "dtype": "F32"}
    ops = [{"Binary": "Add"}, {"Activation": "Gelu"}, {"Binary": "Mul"}, {"Activation": "Relu"}]
    nodes = [{"id": 0, "op": {"Input": {"name": "x"}}, "inputs": [], "shape": shape, "name": None}]
    for i in range(1, depth + 1):
        op = ops[(i - 1) % len(ops)]
        inputs = [i - 1, 0] if "Binary" in op else [i - 1]
        nodes.append({"id": i, "op": {"Mir": op}, "inputs": inputs, "shape": shape, "name": None})
    graph = {"name": "elementwise_chain", "nodes": nodes, "outputs": [depth], "fusion_policy": "Direct"}
    with open(out, "w") as f:
        json.dump(graph, f)


if __name__ == "__main__":
    main()
