// SPDX-License-Identifier: MIT
// Load-time benchmark: a generated 100 000-node RLX HIR JSON graph (target < 1 s) and gpt2_12l.onnx (target < 200 ms).
// Each figure is reported with a reference measured in the same run: a bare nlohmann::json parse of the same text.
// Wall time and process CPU time are both given (medians): loading is single-threaded, so on a machine busy with
// other work the CPU time is close to what an idle machine's wall time would be.
#include "formats/graph_file.h"
#include "formats/onnx_import.h"
#include "formats/rlx_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace costscope;

namespace {
struct Timing {
    double wallMs;
    double cpuMs;
};

// Median wall and process CPU time of `runs` calls.
Timing medianMs(int runs, const std::function<void()>& fn)
{
    std::vector<double> wall, cpu;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        fn();
        cpu.push_back(1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

// A transformer-like chain: every 4 nodes a MatMul against a Param, an Add, a Relu, a LayerNorm.
std::string generateGraph(int nodeCount)
{
    Graph g;
    g.name = "generated";
    auto shape = Shape::of({8, 64});
    Node in;
    in.id = 0;
    Attrs a;
    a.set("name", std::string("x"));
    in.op = Op::make(OpKind::Input, a);
    in.shape = shape;
    g.nodes.push_back(in);
    NodeId prev = 0;
    for (NodeId id = 1; id < nodeCount; ++id) {
        Node n;
        n.id = id;
        n.shape = shape;
        switch (id % 4) {
        case 1: {
            Attrs p;
            p.set("name", "layer" + std::to_string(id / 4) + ".w");
            n.op = Op::make(OpKind::Param, p);
            n.shape = Shape::of({64, 64});
            g.nodes.push_back(n);
            continue;
        }
        case 2:
            n.op = Op::make(OpKind::MatMul);
            n.inputs = {prev, id - 1};
            break;
        case 3: {
            Attrs r;
            r.set("op", std::string("Relu"));
            n.op = Op::make(OpKind::Activation, r);
            n.inputs = {prev};
            break;
        }
        default: {
            Attrs ln;
            ln.set("axis", std::int64_t(-1));
            ln.set("eps", 1e-5);
            n.op = Op::make(OpKind::LayerNorm, ln);
            n.inputs = {prev};
            break;
        }
        }
        g.nodes.push_back(n);
        prev = id;
    }
    g.outputs = {prev};
    return writeRlxJson(g);
}
} // namespace

int main(int argc, char** argv)
{
    const std::string shared = argc > 1 ? argv[1] : "../shared";
    const std::string text = generateGraph(100000);
    const Timing parseOnly = medianMs(5, [&] { auto j = nlohmann::ordered_json::parse(text); (void)j; });
    const Timing load = medianMs(5, [&] {
        auto g = parseRlxJson(text);
        if (!g.ok())
            std::abort();
    });
    std::printf("rlx-json 100000 nodes (%.1f MB): load wall %.1f ms, cpu %.1f ms (target < 1000); json parse alone wall"
                " %.1f ms, cpu %.1f ms; ratio %.2f (cpu)\n",
                text.size() / 1e6, load.wallMs, load.cpuMs, parseOnly.wallMs, parseOnly.cpuMs,
                load.cpuMs / parseOnly.cpuMs);

    if (!onnxImportAvailable()) {
        std::printf("onnx: skipped (this build has no ONNX import)\n");
        return 0;
    }
    auto bytes = readFileBytes(shared + "/data/onnx/transformers/gpt2_12l.onnx");
    if (!bytes.ok()) {
        std::printf("onnx: skipped (%s not found)\n", (shared + "/data/onnx/transformers/gpt2_12l.onnx").c_str());
        return 0;
    }
    const Timing onnx = medianMs(5, [&] {
        auto g = importOnnx(*bytes);
        if (!g.ok())
            std::abort();
    });
    const std::string rlx = generateGraph(523);
    const Timing sameSizeJson = medianMs(5, [&] { auto g = parseRlxJson(rlx); (void)g; });
    std::printf("gpt2_12l.onnx (%.1f MB): import wall %.1f ms, cpu %.1f ms (target < 200); a 523-node RLX JSON load"
                " wall %.2f ms, cpu %.2f ms; ratio %.1f (cpu)\n",
                bytes->size() / 1e6, onnx.wallMs, onnx.cpuMs, sameSizeJson.wallMs, sameSizeJson.cpuMs,
                onnx.cpuMs / sameSizeJson.cpuMs);
    return 0;
}
