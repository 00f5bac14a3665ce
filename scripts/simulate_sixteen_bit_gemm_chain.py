#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The error a correct 16-bit implementation gives on bench_cuda_sixteen_bit's "gemm chain (k 256 / 4096)" check.

The chain x[64, 256] @ W1 + b1 -> Relu -> @ W2 + b2 -> Relu -> @ W3 with the bench's values (cudacases::values, the
inputs of inputsFor), rounded to bf16 or fp16, run two ways with F32 accumulation: as the CPU backend runs it (each
node's result rounded to the 16-bit type) and as the CUDA backend's fused cuBLASLt epilogue stores it (relu(acc +
bias) rounded once). Prints their normwise difference in unit roundoffs, each against the exact (float64) chain, and
each layer's || |A| |W| || / || A W || (how much the products cancel). Needs numpy.
Usage: simulate_sixteen_bit_gemm_chain.py
"""
import numpy as np
def bf16(a):
    a = np.asarray(a, np.float32); x = a.view(np.uint32).astype(np.uint64)
    r = ((x + 0x7fff + ((x >> 16) & 1)) >> 16) << 16
    return r.astype(np.uint32).view(np.float32)
def fp16(a): return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)
def values(n, seed): return np.sin(np.arange(n, dtype=np.float64) * 0.7 + seed * 1.3).astype(np.float32)
rows, k = 64, 256
scale = np.float32(1.0 / np.sqrt(k))
x0 = np.sin(0.37 * np.arange(rows * k, dtype=np.float64) + 0.1).astype(np.float32).reshape(rows, k)
for name, rnd, u in (("bf16", bf16, 2.0**-8), ("fp16", fp16, 2.0**-11)):
    W = [rnd((values(k * k, l + 1) * scale).reshape(k, k)) for l in range(3)]
    b = [rnd(values(k, 9 + l)) for l in range(2)]
    x = rnd(x0)
    mm = lambda a, w: (a.astype(np.float32) @ w.astype(np.float32)).astype(np.float32)
    # CPU backend: every node in F32, its result rounded
    c = x
    for l in range(3):
        c = rnd(mm(c, W[l]))
        if l == 2: break
        c = rnd(c + b[l]); c = rnd(np.maximum(c, 0))
    # fused cuBLASLt epilogue: round(relu(acc + bias)) once
    g = x
    for l in range(3):
        acc = mm(g, W[l])
        if l == 2: g = rnd(acc); break
        g = rnd(np.maximum(acc + b[l], np.float32(0)))
    # exact (float64, no rounding after the inputs)
    e = x.astype(np.float64)
    for l in range(3):
        e = e @ W[l].astype(np.float64)
        if l == 2: break
        e = np.maximum(e + b[l], 0)
    nerr = lambda a, r: np.linalg.norm(a.astype(np.float64) - r) / np.linalg.norm(r)
    # conditioning of the chain: relative perturbation of each layer's output vs its sum of |terms|
    cd = x.astype(np.float64); conds = []
    for l in range(3):
        num = np.abs(cd) @ np.abs(W[l].astype(np.float64)); cd = cd @ W[l].astype(np.float64)
        conds.append(np.linalg.norm(num) / np.linalg.norm(cd))
        if l < 2: cd = np.maximum(cd + b[l], 0)
    err = nerr(g, c.astype(np.float64))
    print(f"{name}: fused vs per-node {err:.4f} = {err/u:.1f} u; fused vs exact {nerr(g,e)/u:.1f} u; per-node vs exact {nerr(c,e)/u:.1f} u; "
          f"per-layer || |A||W| || / ||AW||: {', '.join(f'{v:.1f}' for v in conds)}; tolerance 4u sqrt(5) = {4*u*np.sqrt(5):.4f}")
