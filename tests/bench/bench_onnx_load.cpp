// SPDX-License-Identifier: MIT
// Load time of a large ONNX model with external data (issue 19: a ~1B Llama export must load in < 2 s). Generates a
// Llama-style model as torch's dynamo exporter writes it (llama_onnx_model.h; the default is the 853M-parameter
// shape of scripts/export_hf_models.py), then loads it as `costscope-cli info` does (loadGraphFile) several times
// and reports the first load (the data file was just written, so it is in the page cache, as after any recent read),
// the median, the process CPU time and how much the resident memory grew: weights memory-mapped without copies keep
// that near zero whatever the model's size.
//
//   bench_onnx_load [--dtype fp32|bf16] [--layers 16] [--hidden 2048] [--heads 32] [--kv-heads 8] [--mlp 5632]
//                   [--vocab 32000] [--seq 128] [--runs 3] [--dir DIR] [--keep]
//
// The model is written to DIR (default: a new folder under the system's temporary folder) and deleted afterwards
// unless --keep is given (it takes 3.4 GB at the default fp32 shape).
#include "formats/graph_file.h"
#include "formats/missing_tensor_data.h"
#include "llama_onnx_model.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

using namespace costscope;

namespace {
double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// This process's resident memory in MiB (Linux; 0 elsewhere).
double residentMiB()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            double kib = 0;
            status >> kib;
            return kib / 1024.0;
        }
        status.ignore(1 << 12, '\n');
    }
    return 0;
}

int usage(const char* why)
{
    std::fprintf(stderr, "bench_onnx_load: %s\n(see the comment at the top of bench_onnx_load.cpp)\n", why);
    return 2;
}
} // namespace

int main(int argc, char** argv)
{
    bench::LlamaShape shape;
    int runs = 3;
    bool keep = false;
    std::filesystem::path dir;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--keep") {
            keep = true;
            continue;
        }
        if (i + 1 >= argc)
            return usage(("missing value after " + arg).c_str());
        const std::string value = argv[++i];
        auto number = [&](int& out) {
            out = std::atoi(value.c_str());
            return out > 0;
        };
        bool ok = true;
        if (arg == "--dtype")
            ok = (shape.bf16 = value == "bf16") || value == "fp32";
        else if (arg == "--layers")
            ok = number(shape.layers);
        else if (arg == "--hidden")
            ok = number(shape.hidden);
        else if (arg == "--heads")
            ok = number(shape.heads);
        else if (arg == "--kv-heads")
            ok = number(shape.kvHeads);
        else if (arg == "--mlp")
            ok = number(shape.mlp);
        else if (arg == "--vocab")
            ok = number(shape.vocab);
        else if (arg == "--seq")
            ok = number(shape.seq);
        else if (arg == "--runs")
            ok = number(runs);
        else if (arg == "--dir")
            dir = value;
        else
            return usage(("unknown option " + arg).c_str());
        if (!ok)
            return usage(("bad value '" + value + "' for " + arg).c_str());
    }
    const bool ownDir = dir.empty();
    if (ownDir)
        dir = std::filesystem::temp_directory_path() / ("costscope_bench_onnx_load_" + std::to_string(::time(nullptr)));
    std::filesystem::create_directories(dir);
    const auto path = dir / (shape.bf16 ? "llama_bf16.onnx" : "llama_fp32.onnx");

    const auto t0 = std::chrono::steady_clock::now();
    bench::WrittenModel written;
    try {
        written = bench::writeLlamaOnnx(path, shape);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_onnx_load: %s\n", e.what());
        return 1;
    }
    std::printf("model: %s, %d layers, width %d, %lld parameters (%s), %d nodes, %.2f GB external data, "
                "written in %.1f s\n",
                path.c_str(), shape.layers, shape.hidden, static_cast<long long>(written.parameters),
                shape.bf16 ? "bf16" : "fp32", written.nodes, static_cast<double>(written.externalBytes) / 1e9,
                seconds(t0));

    std::vector<double> wall, cpu;
    int status = 0;
    for (int run = 0; run < runs && status == 0; ++run) {
        const double rssBefore = residentMiB();
        const std::clock_t c0 = std::clock();
        const auto start = std::chrono::steady_clock::now();
        auto loaded = loadGraphFile(path.string());
        wall.push_back(seconds(start));
        cpu.push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        if (!loaded) {
            std::fprintf(stderr, "bench_onnx_load: %s\n", loaded.error().format(path.string()).c_str());
            status = 1;
            break;
        }
        if (!missingTensorData(loaded->graph).empty()) {
            std::fprintf(stderr, "bench_onnx_load: the weights were not read\n");
            status = 1;
        }
        std::printf("load %d: %.3f s wall, %.3f s CPU, %zu graph nodes, resident memory +%.0f MiB\n", run + 1,
                    wall.back(), cpu.back(), loaded->graph.nodes.size(), residentMiB() - rssBefore);
    }
    if (status == 0 && !wall.empty()) {
        std::sort(wall.begin(), wall.end());
        std::sort(cpu.begin(), cpu.end());
        std::printf("median of %d: %.3f s wall, %.3f s CPU (target: < 2 s)\n", runs, wall[wall.size() / 2],
                    cpu[cpu.size() / 2]);
    }
    std::error_code ec;
    if (!keep) {
        std::filesystem::remove(path, ec);
        std::filesystem::remove(std::filesystem::path(path).concat(".data"), ec);
        if (ownDir)
            std::filesystem::remove(dir, ec);
    }
    return status;
}
