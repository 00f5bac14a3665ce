// SPDX-License-Identifier: MIT
#pragma once
// A Llama-style decoder written as torch's dynamo exporter writes it (opset 20, every initializer of 1 KiB or more in
// one external data file beside the model), at any size: the op mix and weight layout of
// scripts/export_hf_models.py's llama export without torch (tests/data/hf/llama_tiny_fp32.onnx is the real thing at
// the tiny size). RMSNorm as Pow/ReduceMean/Add/Sqrt/Reciprocal/Mul, rotary embedding as Slice/Neg/Concat, grouped KV
// heads as Unsqueeze/Expand/Reshape, attention as MatMul/Softmax with IsNaN/Where, SiLU as Sigmoid/Mul. In bf16 the
// weights are bf16 and each RMSNorm computes in fp32 between two Casts, as transformers' LlamaRMSNorm does.

#include <cstdint>
#include <filesystem>
#include <string>

namespace costscope::bench {

struct LlamaShape {
    int layers = 16;
    int hidden = 2048;
    int heads = 32;
    int kvHeads = 8;
    int mlp = 5632;
    int vocab = 32000;
    int seq = 128;
    bool bf16 = false;
};

struct WrittenModel {
    std::int64_t parameters = 0;     // elements of every weight
    std::uint64_t externalBytes = 0; // size of the .onnx.data file
    int nodes = 0;
};

// Writes `onnxPath` and `onnxPath` + ".data" (weights of a fixed pseudo-random pattern). Throws std::runtime_error
// when a file cannot be written.
WrittenModel writeLlamaOnnx(const std::filesystem::path& onnxPath, const LlamaShape& shape);

} // namespace costscope::bench
