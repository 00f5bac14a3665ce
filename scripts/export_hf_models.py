#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Real Hugging Face exports for issue 19: GPT-2 124M, BERT-base and a Llama-style ~1B model, random weights.

Each model is built with transformers from its config (weights drawn by the library's own initialiser, seed 0),
exported with torch.onnx.export as the installed torch writes it (dynamo=True where that works, else the
TorchScript exporter; the summary says which), in fp32 and bf16, weights as external data beside the .onnx, at a
fixed batch and sequence. Beside each model it writes the inputs as TensorProto .pb files (in the graph's input
order) and PyTorch's output:
  NAME.onnx, NAME.onnx.data        the export (the .data file holds every initializer)
  NAME.input0.pb, NAME.input1.pb   input_ids (and BERT's attention_mask), int64
  NAME.ref.pb                      PyTorch's output in the model's own dtype, stored as fp32 (for bf16: PyTorch's
                                   native bf16 computation on the GPU)
  NAME.ref_fp32math.pb             bf16 only: the same bf16 weights computed in fp32 (what a backend running bf16
                                   "by conversion" computes, so its difference is the exporter's and the backend's)
so that `costscope-cli run NAME.onnx --input NAME.input0.pb ... --reference NAME.ref.pb` compares with PyTorch.
The outputs are the logits (GPT-2, Llama) and BERT's last hidden state. Matrix products in PyTorch run without TF32.
summary.json lists every export: files, exporter, opset, parameter count, sizes and export time.

Models (--size small: the same with 2 layers; --size tiny: 2 layers at width 64 and a vocabulary of 1000, test data):
  gpt2        GPT2Config() (124M: 12 layers, width 768, 12 heads, vocabulary 50257)
  bert        BertConfig() (bert-base: 12 layers, width 768, 12 heads, MLP 3072, vocabulary 30522)
  llama       LlamaConfig: width 2048, 16 layers, 32 heads, 8 KV heads, MLP 5632, vocabulary 32000 (853M parameters)

Usage: export_hf_models.py OUT_DIR [--size full|small|tiny] [--models gpt2,bert,llama] [--dtypes fp32,bf16] [--batch 1] [--seq 128]
"""
import argparse
import json
import time
import traceback
from pathlib import Path

import torch


def make_config(name, size):
    import transformers as tf

    tiny = size == "tiny"
    layers = 16 if size == "full" and name == "llama" else 12 if size == "full" else 2
    # tiny: the same architectures at width 64 and a vocabulary of 1000 (test data of a few hundred kB)
    if name == "gpt2":
        return tf.GPT2Config(n_layer=layers, n_embd=64, n_head=4, vocab_size=1000, n_positions=256) if tiny else \
            tf.GPT2Config(n_layer=layers)
    if name == "bert":
        return tf.BertConfig(num_hidden_layers=layers, hidden_size=64, num_attention_heads=4, intermediate_size=256,
                             vocab_size=1000, max_position_embeddings=256) if tiny else \
            tf.BertConfig(num_hidden_layers=layers)
    if name == "llama":
        if tiny:
            return tf.LlamaConfig(hidden_size=64, num_hidden_layers=layers, num_attention_heads=4,
                                  num_key_value_heads=2, intermediate_size=172, vocab_size=1000,
                                  max_position_embeddings=256)
        return tf.LlamaConfig(hidden_size=2048, num_hidden_layers=layers, num_attention_heads=32,
                              num_key_value_heads=8, intermediate_size=5632, vocab_size=32000,
                              max_position_embeddings=2048)
    raise ValueError(f"unknown model {name}")


class Logits(torch.nn.Module):
    """The model's first output alone (logits or the last hidden state), without a KV cache."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask=None):
        if attention_mask is None:
            return self.model(input_ids=input_ids, use_cache=False, return_dict=False)[0]
        return self.model(input_ids=input_ids, attention_mask=attention_mask, return_dict=False)[0]


def build(name, size, dtype):
    import transformers as tf

    torch.manual_seed(0)
    config = make_config(name, size)
    cls = {"gpt2": tf.GPT2LMHeadModel, "bert": tf.BertModel, "llama": tf.LlamaForCausalLM}[name]
    model = cls(config).to(dtype).eval()
    return Logits(model), config


def inputs_for(name, config, batch, seq):
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, config.vocab_size, (batch, seq), generator=g, dtype=torch.int64)
    if name != "bert":
        return (ids,)
    mask = torch.ones(batch, seq, dtype=torch.int64)
    mask[:, seq - seq // 8:] = 0  # padding at the end: the mask must matter
    return ids, mask


def export(model, args, path):
    """The current exporter first; the TorchScript one where it fails. Returns (exporter, note)."""
    names = ["input_ids", "attention_mask"][: len(args)]
    try:
        torch.onnx.export(model, args, str(path), dynamo=True, external_data=True, input_names=names,
                          output_names=["output"])
        return "dynamo", ""
    except TypeError as e:  # a torch without dynamo/external_data arguments
        note = f"dynamo exporter unavailable: {e}"
    except Exception as e:  # noqa: BLE001 - any exporter failure: say it and try the other one
        note = f"dynamo exporter failed: {type(e).__name__}: {str(e).splitlines()[0][:300]}"
    torch.onnx.export(model, args, str(path), dynamo=False, input_names=names, output_names=["output"],
                      opset_version=17)
    import onnx

    m = onnx.load(str(path))
    onnx.save_model(m, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                    location=path.name + ".data", size_threshold=0)
    return "torchscript", note


def write_pb(tensor, path):
    from onnx import numpy_helper

    Path(path).write_bytes(numpy_helper.from_array(tensor.detach().cpu().numpy()).SerializeToString())


def opset_of(path):
    import onnx

    m = onnx.load(str(path), load_external_data=False)
    return {o.domain or "ai.onnx": o.version for o in m.opset_import}


def one(name, dtype_name, a, out_dir):
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[dtype_name]
    tag = f"{name}{'' if a.size == 'full' else '_' + a.size}_{dtype_name}"
    r = {"name": tag, "model": name, "size": a.size, "dtype": dtype_name, "batch": a.batch, "seq": a.seq}
    t0 = time.perf_counter()
    model, config = build(name, a.size, dtype)
    r["parameters"] = sum(p.numel() for p in model.parameters())
    args = inputs_for(name, config, a.batch, a.seq)
    path = out_dir / f"{tag}.onnx"
    t1 = time.perf_counter()
    r["exporter"], r["exporter_note"] = export(model, args, path)
    r["export_s"] = round(time.perf_counter() - t1, 2)
    r["opset"] = opset_of(path)
    r["files"] = {"onnx": path.name, "inputs": [], "reference": f"{tag}.ref.pb"}
    for i, x in enumerate(args):
        write_pb(x, out_dir / f"{tag}.input{i}.pb")
        r["files"]["inputs"].append(f"{tag}.input{i}.pb")
    dev = a.device if torch.cuda.is_available() or a.device == "cpu" else "cpu"
    model = model.to(dev)
    with torch.no_grad():
        want = model(*(x.to(dev) for x in args))
        write_pb(want.float(), out_dir / f"{tag}.ref.pb")
        if dtype != torch.float32:
            want32 = model.float()(*(x.to(dev) for x in args))
            write_pb(want32, out_dir / f"{tag}.ref_fp32math.pb")
            r["files"]["reference_fp32math"] = f"{tag}.ref_fp32math.pb"
            r["bf16_vs_fp32math_max_abs"] = float((want.float() - want32).abs().max())
    r["output_shape"] = list(want.shape)
    r["output_abs_max"] = float(want.float().abs().max())
    r["output_std"] = float(want.float().std())
    r["reference_device"] = dev
    r["bytes"] = {p.name: p.stat().st_size for p in out_dir.glob(f"{tag}.onnx*")}
    r["total_s"] = round(time.perf_counter() - t0, 2)
    del model
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out_dir")
    p.add_argument("--size", choices=("full", "small", "tiny"), default="full",
                   help="small: 2 layers; tiny: 2 layers at width 64, vocabulary 1000")
    p.add_argument("--models", default="gpt2,bert,llama")
    p.add_argument("--dtypes", default="fp32,bf16")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq", type=int, default=128)
    p.add_argument("--device", default="cuda", help="where PyTorch computes the reference (cpu without a GPU)")
    a = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    out_dir = Path(a.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    import transformers

    summary_path = out_dir / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    summary.update({"torch": torch.__version__, "transformers": transformers.__version__})
    models = summary.setdefault("models", [])
    for name in a.models.split(","):
        for dtype_name in a.dtypes.split(","):
            try:
                r = one(name, dtype_name, a, out_dir)
            except Exception as e:  # noqa: BLE001 - one model failing must not hide the others
                traceback.print_exc()
                r = {"name": f"{name}{'' if a.size == 'full' else '_' + a.size}_{dtype_name}", "error": f"{type(e).__name__}: {e}"}
            print(json.dumps(r), flush=True)
            models[:] = [m for m in models if m.get("name") != r["name"]] + [r]
            summary_path.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
