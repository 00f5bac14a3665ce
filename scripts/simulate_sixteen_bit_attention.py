#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The error a correct tensor-core attention kernel gives on bench_cuda_sixteen_bit's attention checks.

The bench's three single-Attention graphs (per head, head dim 64, sequence 130: no mask; causal with 4 query heads
on 2 KV heads; an additive [batch, 1, seq, seq] mask with -inf at every 5th element) with its values (q from
inputsFor, k, v and the mask from cudacases::values), rounded to bf16 or fp16, computed two ways: as the CPU backend
does (F32 throughout, the result rounded once) and as engine/cuda/attention_tensor_core.cu does (keys in tiles of
64, online softmax in F32, each tile's probabilities rounded to the 16-bit type before P V and summed as rounded,
the result rounded once). Prints their normwise difference in unit roundoffs (u = 2^-8 for bf16, 2^-11 for fp16, as
the bench counts them). Plain Python (no numpy): takes a minute.
Usage: simulate_sixteen_bit_attention.py
"""
import math
import struct


def bf16(x):
    if math.isinf(x):
        return x
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def fp16(x):
    return x if math.isinf(x) else struct.unpack("<e", struct.pack("<e", x))[0]


def values(n, seed):
    return [math.sin(i * 0.7 + seed * 1.3) for i in range(n)]


def attention(rnd, q, k, v, mask, batch, heads, kv_heads, seq, dim, causal, tiled):
    out = []
    # v per (batch, KV head) as columns over the keys
    vt = [[[v[(bh * seq + j) * dim + d] for j in range(seq)] for d in range(dim)] for bh in range(batch * kv_heads)]
    for b in range(batch):
        for h in range(heads):
            hk = h // (heads // kv_heads)
            for i in range(seq):
                qi = q[((b * heads + h) * seq + i) * dim:][:dim]
                end = i + 1 if causal else seq
                s = []
                for j in range(end):
                    kj = k[((b * kv_heads + hk) * seq + j) * dim:][:dim]
                    x = sum(a * c for a, c in zip(qi, kj)) * 0.125
                    s.append(x + (mask[(b * seq + i) * seq + j] if mask else 0.0))
                vcols = vt[b * kv_heads + hk]
                if not tiled:
                    m = max(s)
                    p = [math.exp(x - m) for x in s]
                    acc = [sum(a * c for a, c in zip(p, col)) for col in vcols]
                    out += [rnd(a / sum(p)) for a in acc]
                    continue
                m, l, acc = -math.inf, 0.0, [0.0] * dim
                for j0 in range(0, end, 64):
                    tile = s[j0:j0 + 64]
                    m_new = max(m, max(tile))
                    corr = 1.0 if m_new == -math.inf else math.exp(m - m_new)
                    p = [0.0 if x == -math.inf else rnd(math.exp(x - m_new)) for x in tile]
                    l = l * corr + sum(p)
                    acc = [a * corr + sum(x * c for x, c in zip(p, col[j0:])) for a, col in zip(acc, vcols)]
                    m = m_new
                out += [rnd(a / l) for a in acc]
    return out


def main():
    batch, seq, dim = 2, 130, 64
    cases = (("no mask", 3, 3, False, False), ("causal, 4 heads on 2", 4, 2, True, False),
             ("additive mask", 3, 3, False, True))
    for name, rnd, u in (("bf16", bf16, 2.0**-8), ("fp16", fp16, 2.0**-11)):
        for case, heads, kv_heads, causal, masked in cases:
            q = [rnd(math.sin(0.37 * i + 0.1)) for i in range(batch * heads * seq * dim)]
            k = [rnd(x) for x in values(batch * kv_heads * seq * dim, 1)]
            v = [rnd(x) for x in values(batch * kv_heads * seq * dim, 2)]
            mask = None
            if masked:
                mask = [-math.inf if i % 5 == 0 else rnd(x) for i, x in enumerate(values(batch * seq * seq, 3))]
            args = (rnd, q, k, v, mask, batch, heads, kv_heads, seq, dim, causal)
            cpu, gpu = attention(*args, tiled=False), attention(*args, tiled=True)
            diff = math.sqrt(sum((a - b) ** 2 for a, b in zip(gpu, cpu)) / sum(b * b for b in cpu))
            print(f"{name} {case}: normwise difference {diff:.3g} = {diff / u:.2f} u", flush=True)


main()
