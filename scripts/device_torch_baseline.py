#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Whole-graph baselines on the GPU machine for the CUDA backend's comparison.

Times, at batch 1, 8 and 64 (sequence 32, fp32, median of timed runs after warm-up, CUDA synchronised):
  * ONNX Runtime on gpt2_12l.onnx and bert_12l.onnx, with the CUDA provider where the installed build has it
    (the figures name the provider used). The exported files hard-code batch 2 in their Reshape shapes; for other
    batches a copy with the batch made symbolic and those shapes rewritten is tried, and a failure is reported.
  * PyTorch eager on modules of the same architecture (12 layers, hidden 64, 4 heads, MLP 256, vocabulary 1000;
    GPT-2 pre-norm causal, BERT post-norm with pooler), random weights: the machine has no ONNX-to-PyTorch
    converter, and the time does not depend on the weight values.
Writes an ONNX Runtime profile of gpt2 (batch 2, the file as exported) to OUT/ort_profile_gpt2.json and all
figures to OUT/torch_baseline.json.

Usage: device_torch_baseline.py MODEL_DIR OUT_DIR
"""
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

BATCHES = (1, 2, 8, 64)  # 2: the batch the ONNX files were exported with
SEQ = 32


def timed(fn, sync, warmup=10, runs=50):
    for _ in range(warmup):
        fn()
    sync()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        sync()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def batch_free_model(path, batch):
    """The ONNX model with its input batch symbolic and Reshape targets that hard-code batch 2 rewritten (batch 2
    leaves them as exported)."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(path))
    # The exporter writes opset 17 but uses Split's num_outputs, an opset-18 attribute; none of the other ops in
    # these models changed between 17 and 18.
    for imp in m.opset_import:
        if imp.domain in ("", "ai.onnx") and imp.version < 18:
            imp.version = 18
    for vi in list(m.graph.input) + list(m.graph.output):
        dims = vi.type.tensor_type.shape.dim
        if len(dims) and dims[0].dim_value == 2:
            dims[0].dim_param = "batch"
    del m.graph.value_info[:]
    shape_inputs = {n.input[1] for n in m.graph.node if n.op_type == "Reshape"}

    def rewrite(arr):
        v = arr.tolist()
        if len(v) >= 3 and v[0] == 2:
            v[0] = batch
        elif v == [64, 64]:  # [batch * seq, hidden] flattened before a Gemm
            v[0] = -1
        return numpy_helper.from_array(np.array(v, dtype=arr.dtype))

    for t in m.graph.initializer:
        if t.name in shape_inputs:
            new = rewrite(numpy_helper.to_array(t))
            new.name = t.name
            t.CopyFrom(new)
    for n in m.graph.node:
        if n.op_type == "Constant" and n.output[0] in shape_inputs:
            for a in n.attribute:
                if a.name == "value":
                    new = rewrite(numpy_helper.to_array(a.t))
                    a.t.CopyFrom(new)
    return m.SerializeToString()


def ort_times(model_dir, out_dir, results):
    import numpy as np
    import onnxruntime as ort

    # The CUDA provider when this onnxruntime build has it; the figures name the provider actually used.
    available = ort.get_available_providers()
    providers = ["CUDAExecutionProvider"] if "CUDAExecutionProvider" in available else ["CPUExecutionProvider"]
    results["ort providers available"] = available
    for name in ("gpt2_12l", "bert_12l"):
        path = Path(model_dir) / f"{name}.onnx"
        for batch in BATCHES:
            key = f"ort {providers[0]} {name} batch {batch}"
            try:
                sess = ort.InferenceSession(batch_free_model(path, batch), providers=providers)
                feeds = {}
                for i in sess.get_inputs():
                    feeds[i.name] = np.zeros((batch, SEQ), dtype=np.int64)
                results[key] = timed(lambda: sess.run(None, feeds), lambda: None)
                results[key + " provider"] = sess.get_providers()[0]
            except Exception as e:  # report, keep going: the other figures still matter
                results[key] = f"failed: {e}"[:300]
            print(key, results[key], flush=True)
        if name == "gpt2_12l":
            opts = ort.SessionOptions()
            opts.enable_profiling = True
            opts.profile_file_prefix = str(Path(out_dir) / "ort_profile_gpt2")
            sess = ort.InferenceSession(batch_free_model(path, 2), opts, providers=providers)
            feeds = {i.name: np.zeros((2, SEQ), dtype=np.int64) for i in sess.get_inputs()}
            for _ in range(2):  # a warm-up and one steady run keep the profile small
                sess.run(None, feeds)
            shutil.move(sess.end_profiling(), Path(out_dir) / "ort_profile_gpt2.json")


def torch_times(results):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    H, HEADS, MLP, VOCAB, LAYERS = 64, 4, 256, 1000, 12

    class Block(nn.Module):
        def __init__(self, causal):
            super().__init__()
            self.causal = causal
            self.ln1, self.ln2 = nn.LayerNorm(H), nn.LayerNorm(H)
            self.qkv, self.proj = nn.Linear(H, 3 * H), nn.Linear(H, H)
            self.fc1, self.fc2 = nn.Linear(H, MLP), nn.Linear(MLP, H)

        def attn(self, x):
            b, s, _ = x.shape
            q, k, v = self.qkv(x).split(H, dim=2)
            q, k, v = (t.view(b, s, HEADS, H // HEADS).transpose(1, 2) for t in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
            return self.proj(y.transpose(1, 2).reshape(b, s, H))

        def forward(self, x):
            gelu = "tanh" if self.causal else "none"
            if self.causal:
                x = x + self.attn(self.ln1(x))
                return x + self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate=gelu))
            x = self.ln1(x + self.attn(x))
            return self.ln2(x + self.fc2(F.gelu(self.fc1(x), approximate=gelu)))

    class Model(nn.Module):
        def __init__(self, causal):
            super().__init__()
            self.causal = causal
            self.emb, self.pos = nn.Embedding(VOCAB, H), nn.Parameter(torch.zeros(SEQ, H))
            self.ln0, self.lnf = nn.LayerNorm(H), nn.LayerNorm(H)
            self.blocks = nn.ModuleList(Block(causal) for _ in range(LAYERS))
            self.head = nn.Linear(H, VOCAB, bias=False) if causal else nn.Linear(H, H)

        def forward(self, ids):
            x = self.emb(ids) + self.pos
            if not self.causal:
                x = self.ln0(x)
            for blk in self.blocks:
                x = blk(x)
            return self.head(self.lnf(x)) if self.causal else torch.tanh(self.head(x[:, 0]))

    dev = torch.device("cuda")
    results["torch"] = torch.__version__
    results["gpu"] = torch.cuda.get_device_name(0)
    for causal, name in ((True, "gpt2_12l"), (False, "bert_12l")):
        model = Model(causal).to(dev).eval()
        for tf32 in (False, True):
            torch.backends.cuda.matmul.allow_tf32 = tf32
            for batch in BATCHES:
                ids = torch.zeros(batch, SEQ, dtype=torch.int64, device=dev)
                with torch.no_grad():
                    t = timed(lambda: model(ids), torch.cuda.synchronize)
                key = f"torch_eager {name} batch {batch} {'tf32' if tf32 else 'fp32'}"
                results[key] = t
                print(key, t, flush=True)


def main():
    model_dir, out_dir = sys.argv[1], sys.argv[2]
    results = {}
    try:
        torch_times(results)
    except Exception as e:
        results["torch"] = f"failed: {e}"[:300]
    try:
        ort_times(model_dir, out_dir, results)
    except Exception as e:
        results["ort"] = f"failed: {e}"[:300]
    Path(out_dir, "torch_baseline.json").write_text(json.dumps(results, indent=1))
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
