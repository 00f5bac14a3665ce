// SPDX-License-Identifier: MIT
#include "zoo/kernel_sampler.h"

#include "analysis/kernel_predictor.h"
#include "edit/graph_builder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>

namespace costscope {

namespace {

using edit::GraphBuilder;
using Dims = std::vector<std::int64_t>;

// Fills graphs of up to kPerGraph nodes of one class; a configuration over the FLOP limit is left out.
//
// Kinds of graph, because a kernel's time depends on whether its inputs are still in the GPU's L2 (the reuse
// distance, analysis/reuse_distance.h). A graph is replayed, so its inputs and weights were last touched a whole
// pass ago: in a graph of twelve large kernels (a pass of 50-100 MB) they come from DRAM, as they never do for the
// small layers of a small model. The same attention kernel measured 36 us cold and 23 us warm on an H100. So one of
// every two configurations small enough (kWarmNodeBytes) goes into a "warm" graph whose whole pass stays under
// kWarmGraphBytes, and the predictors see both contexts of the same shapes. Which one of the two follows the
// Thue-Morse sequence, not plain alternation: a grid whose innermost loop has two values would otherwise put each
// value of that loop on one side, as plain alternation did: every grouped 1x1 convolution (kernel sizes 1 and 3)
// and every unmasked attention (masks none and causal) was sampled cold only. ShuffleNet's grouped 1x1 layers, whose
// inputs come from the kernel just before, were under-predicted by a fifth on the H200 of 2026-11-29.
// A third kind, "between" graphs of a few large layers (addBetween), re-reads weights of several MB one or two such
// layers after their last touch: more than a warm graph holds, less than a cold one puts between them.
class SamplerSet {
public:
    SamplerSet(std::string cls, double maxGflop, std::vector<SamplerGraph>& out)
        : m_cls(std::move(cls)), m_maxFlops(maxGflop * 1e9), m_out(out)
    {
    }
    ~SamplerSet()
    {
        flush(m_cold);
        flush(m_warm);
        flush(m_between);
    }

    // `flops` of the configuration; `make` adds its node to the builder and returns it.
    template <class Make>
    void add(double flops, Make make)
    {
        if (flops > m_maxFlops)
            return;
        const double bytes = bytesOf(make);
        const bool warm = bytes <= kWarmNodeBytes && std::popcount(m_small++) % 2 == 1;
        if (warm)
            put(m_warm, "-warm", kWarmGraphBytes, bytes, make);
        else
            put(m_cold, "", 0, bytes, make);
    }
    // A configuration for the "between" graphs: each holds what fits in kBetweenGraphBytes a pass.
    template <class Make>
    void addBetween(double flops, Make make)
    {
        if (flops > m_maxFlops)
            return;
        put(m_between, "-between", kBetweenGraphBytes, bytesOf(make), make);
    }
    NodeId input(GraphBuilder& b, Dims dims)
    {
        std::string name = "x"; // appended, not "x" + ...: GCC 12 warns falsely on that (bug 105329)
        name += std::to_string(m_n++);
        return b.leaf(OpKind::Input, name, Shape::of(std::move(dims)));
    }
    NodeId param(GraphBuilder& b, Dims dims)
    {
        std::string name = "w";
        name += std::to_string(m_n++);
        return b.leaf(OpKind::Param, name, Shape::of(std::move(dims)));
    }

private:
    static constexpr std::size_t kPerGraph = 12;
    static constexpr double kWarmNodeBytes = 8.0 * (1 << 20);
    static constexpr double kWarmGraphBytes = kWarmReuseBytes; // the predictors' warmest distance is this pass
    static constexpr double kBetweenGraphBytes = 40.0 * (1 << 20);
    struct Pack {
        std::unique_ptr<GraphBuilder> builder;
        std::vector<NodeId> outputs;
        double bytes = 0;
    };
    // Adds the configuration to `pack`, first flushing it where the configuration would take its pass over
    // `maxBytes` (0: no limit but kPerGraph nodes).
    template <class Make>
    void put(Pack& pack, const char* suffix, double maxBytes, double bytes, Make& make)
    {
        if (maxBytes > 0 && pack.bytes + bytes > maxBytes)
            flush(pack);
        if (!pack.builder) {
            std::string name = m_cls + "-sampler-" + std::to_string(m_out.size());
            name += suffix;
            pack.builder = std::make_unique<GraphBuilder>(std::move(name));
        }
        pack.outputs.push_back(make(*pack.builder));
        pack.bytes += bytes;
        if (pack.outputs.size() == kPerGraph)
            flush(pack);
    }
    // The bytes a configuration touches, from its node built alone.
    template <class Make>
    static double bytesOf(Make& make)
    {
        GraphBuilder scratch("scratch");
        const NodeId id = make(scratch);
        return nodeBytes(scratch.graph(), id);
    }
    // The bytes one configuration touches: its node's inputs and output as stored.
    static double nodeBytes(const Graph& g, NodeId id)
    {
        auto tensor = [](const Node* n) {
            const auto e = n ? n->shape.elements() : std::nullopt;
            return e ? double(*e) * double(byteSize(n->shape.dtype)) : 0.0;
        };
        const Node* node = g.find(id);
        if (!node)
            return 0;
        double total = tensor(node);
        for (NodeId in : node->inputs)
            total += tensor(g.find(in));
        return total;
    }
    void flush(Pack& pack)
    {
        if (pack.builder && !pack.outputs.empty())
            m_out.push_back({m_cls, pack.builder->finish(pack.outputs)});
        pack = Pack{};
    }
    std::string m_cls;
    double m_maxFlops;
    std::vector<SamplerGraph>& m_out;
    Pack m_cold, m_warm, m_between;
    int m_n = 0;
    unsigned m_small = 0;
};

void matmuls(double maxGflop, std::vector<SamplerGraph>& out)
{
    SamplerSet s("matmul", maxGflop, out);
    // From {512, 10} on: narrow layers (small transformers and MLPs, classifier heads), where a GEMM is launch-bound
    // and its tiles mostly empty; the last three as narrow as RLX's example bundles (32x16x32 products took 4.5-4.7 us
    // on an H200, 20 % over their prediction, with no sampled product of k under 64).
    const std::vector<std::pair<std::int64_t, std::int64_t>> kn = {
        {256, 256},   {256, 1024},  {768, 768}, {768, 3072}, {3072, 768}, {1024, 1024},
        {2048, 2048}, {4096, 1024}, {512, 10},  {64, 64},    {64, 256},   {256, 64},
        {128, 512},   {512, 128},   {16, 32},   {32, 16},    {32, 32}};
    const char* activations[] = {nullptr, "Gelu", "GeluApprox", "Relu"};
    // Plain and fused layers alternate along each row and swap places from one m to the next, so that every (k, n)
    // is sampled both ways; the fused ones take the four epilogues in turn.
    int fusedCount = 0;
    auto layer = [&](std::int64_t m, std::int64_t k, std::int64_t n, bool fused, bool between = false) {
        const char* act = fused ? activations[fusedCount++ % 4] : nullptr;
        auto make = [&](GraphBuilder& b) {
            const NodeId x = s.input(b, m >= 64 && m % 64 == 0 ? Dims{m / 64, 64, k} : Dims{m, k});
            if (!fused)
                return b.op(OpKind::MatMul, {x, s.param(b, {k, n})});
            Op op = edit::defaultOp(OpKind::FusedMatMulBiasAct);
            if (act)
                op.attrs.set("activation", std::string(act));
            else
                op.attrs.erase("activation"); // bias only (the default op has Gelu)
            return b.op(op, {x, s.param(b, {k, n}), s.param(b, {n})});
        };
        const double flops = 2.0 * double(m) * double(k) * double(n);
        if (between)
            s.addBetween(flops, make);
        else
            s.add(flops, make);
    };
    // cuBLAS picks its kernel by shape, and batch-8 to batch-32 products can be slower than larger ones (split-K with
    // a second pass): every power of two is sampled.
    int row = 0;
    for (std::int64_t m : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192}) {
        ++row;
        for (std::size_t column = 0; column < kn.size(); ++column)
            layer(m, kn[column].first, kn[column].second, (std::size_t(row) + column) % 2 == 1);
    }
    // Narrow layers at small batch on a regular grid of widths: there a GEMM reads its weights once and cuBLAS's
    // kernel, and with it the time, turns on which of k and n is wider (1x2048x512 took 2.9 us on an H200 where
    // 1x512x2048 took 4.3 us, and with no width above holding n under 768 with k of 1024 or more, 6-7 us was
    // predicted).
    row = 0;
    for (std::int64_t m : {1, 2, 4, 8, 16, 32, 64}) {
        int column = ++row;
        for (std::int64_t k : {256, 512, 1024, 2048})
            for (std::int64_t n : {256, 512, 1024, 2048})
                if (std::find(kn.begin(), kn.end(), std::pair{k, n}) == kn.end())
                    layer(m, k, n, ++column % 2 == 1);
    }
    // Small-batch layers of 16 MB weights, two to a "between" graph: each weight re-read 16 MB (the other layer)
    // after its last touch, as in a batch-8 MLP of such layers. Cold, such layers took 2.5-2.9x the analytic time
    // on an H200 and warm ones of 4 MB 1.4-1.8x; with nothing sampled between, held-out MLPs of 1024-4096-1024 and
    // 2048x4 at batch 8 (13-15 us a layer, 2.3-2.7x) were priced at 10-12 us.
    row = 0;
    for (std::int64_t m : {1, 2, 4, 8, 16, 32}) {
        int column = ++row;
        for (const auto& [k, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{{1024, 4096}, {4096, 1024}})
            layer(m, k, n, ++column % 2 == 1, true);
    }
    for (std::int64_t m : {1, 2, 4, 8, 16, 32})
        layer(m, 2048, 2048, ++row % 2 == 1, true);
    // ONNX's Gemm as exporters write a linear layer: the weight stored [n, k] (trans_b) and a bias. cuBLAS runs the
    // transposed operand with other kernels; no other sampled GEMM has it (AlexNet's 8x9216x4096 took 111 us, 2.4x
    // its batch-1 time, and was predicted 76 us).
    for (std::int64_t m : {1, 8, 64, 512})
        for (const auto& [k, n] : std::vector<std::pair<std::int64_t, std::int64_t>>{
                 {512, 512}, {768, 768}, {1024, 1000}, {2048, 1000}, {4096, 1000}, {4096, 4096}}) {
            const std::int64_t kk = k, nn = n; // captured below: no binding
            s.add(2.0 * double(m * kk * nn), [&](GraphBuilder& b) {
                Op op = edit::defaultOp(OpKind::Gemm);
                op.attrs.set("trans_b", true);
                return b.op(op, {s.input(b, {m, kk}), s.param(b, {nn, kk}), s.param(b, {nn})});
            });
        }
    // Batched products of two activations, as exported attention computes scores (q k^T) and mixes values (p v):
    // one strided-batched call per node.
    for (std::int64_t bh : {8, 32, 96})
        for (std::int64_t seq : {16, 32, 128, 512})
            for (std::int64_t d : {16, 64})
                for (const bool scores : {true, false}) {
                    const Dims left = scores ? Dims{bh / 4, 4, seq, d} : Dims{bh / 4, 4, seq, seq};
                    const Dims right = scores ? Dims{bh / 4, 4, d, seq} : Dims{bh / 4, 4, seq, d};
                    s.add(2.0 * double(bh * seq * seq * d), [&](GraphBuilder& b) {
                        return b.op(OpKind::MatMul, {s.input(b, left), s.input(b, right)});
                    });
                }
}

void attentions(double maxGflop, std::vector<SamplerGraph>& out)
{
    SamplerSet s("attention", maxGflop, out);
    const std::vector<std::pair<std::int64_t, std::int64_t>> headShapes = {
        {4, 64}, {8, 64}, {12, 64}, {16, 64}, {8, 128}, {4, 32}, {4, 16}}; // small models' narrow heads
    for (std::int64_t seq : {16, 32, 64, 128, 256, 512, 1024})
        for (const auto& shape : headShapes)
            for (std::int64_t batch : {1, 8})
                for (const bool causal : {false, true}) {
                    const std::int64_t heads = shape.first, dim = shape.second; // captured below: no binding
                    const double flops = double(batch * heads) * double(seq) * double(seq) * (4.0 * double(dim) + 5);
                    s.add(flops, [&](GraphBuilder& b) {
                        const Dims d = {batch, seq, heads * dim};
                        Op op = edit::defaultOp(OpKind::Attention);
                        op.attrs.set("num_heads", heads);
                        op.attrs.set("head_dim", dim);
                        op.attrs.set("mask_kind", std::string(causal ? "Causal" : "None"));
                        return b.op(op, {s.input(b, d), s.input(b, d), s.input(b, d)});
                    });
                }
}

void convs(double maxGflop, std::vector<SamplerGraph>& out)
{
    SamplerSet s("conv", maxGflop, out);
    std::mt19937 rng(20);
    const std::int64_t channels[] = {8, 16, 24, 32, 48, 64, 96, 128, 240, 256};
    const std::int64_t sizes[] = {7, 14, 28, 56, 112};
    // Grouped and depthwise layers on a grid (ResNeXt, ShuffleNet, MobileNet): their kernels differ most from dense
    // ones. Channels are multiples of the group count, as in those models (ShuffleNet's groups of 3: 240, 480, ...),
    // from narrow (8 a group) to wide, at every spatial size a CNN's stages have.
    // The batch alternates between neighbouring sizes, the same for both kernel sizes: alternating it with the kernel
    // size (as this grid once did) timed every grouped 1x1 layer at batch 1 and every 3x3 one at batch 8, and
    // ShuffleNet's grouped 1x1 layers at batch 8 (three times batch 1's time) were under-predicted by a fifth.
    int gridIndex = 0;
    for (std::int64_t groups : {2, 3, 4, 8, 16})
        for (std::int64_t perGroup : {8, 32, 128})
            for (std::int64_t size : {14, 28, 56, 112})
                for (std::int64_t k : {1, 3}) {
                    const std::int64_t ch = perGroup * groups;
                    const std::int64_t batch = (gridIndex++ / 2 + perGroup / 32) % 2 ? 8 : 1;
                    const std::int64_t g = k == 3 && groups == 16 ? ch : groups; // depthwise in place of g16
                    if (ch > 1024)
                        continue;
                    const std::int64_t macsPerOutput = ch / g * k * k; // whole: g divides ch
                    s.add(2.0 * double(batch * ch * size * size) * double(macsPerOutput), [&](GraphBuilder& b) {
                        Op op = edit::defaultOp(OpKind::Conv);
                        op.attrs.set("kernel_size", Dims{k, k});
                        op.attrs.set("padding", Dims{k / 2, k / 2});
                        op.attrs.set("groups", g);
                        return b.op(op, {s.input(b, {batch, ch, size, size}), s.param(b, {ch, ch / g, k, k}),
                                         s.param(b, {ch})});
                    });
                }
    // Wide layers as the exported CNNs have them (ResNet-50's bottlenecks, VGG-19's last stages, Inception's 1x1
    // reductions, AlexNet's 13x13 layers in two groups): the grid above and the draws below stop at 256 channels, so
    // each of those models was priced from the others' wide layers alone (AlexNet's 3x3 layers of 384 channels in two
    // groups: 65 us measured at batch 1 on an H200, 31-36 us predicted).
    struct Wide {
        std::int64_t cin, cout, groups;
    };
    int wideIndex = 0;
    for (const Wide& w : std::vector<Wide>{
             {256, 512, 1}, {512, 512, 1}, {512, 128, 1}, {1024, 256, 1}, {256, 1024, 1}, {384, 384, 2}, {384, 256, 2}})
        for (std::int64_t size : {7, 13, 28})
            for (std::int64_t k : {1, 3}) {
                const std::int64_t batch = wideIndex++ / 2 % 2 ? 8 : 1; // both kernel sizes at each batch in turn
                const std::int64_t perGroup = w.cin / w.groups; // whole: every Wide's groups divide its channels
                const double flops = 2.0 * double(batch * w.cout * size * size) * double(perGroup * k * k);
                s.add(flops, [&](GraphBuilder& b) {
                    Op op = edit::defaultOp(OpKind::Conv);
                    op.attrs.set("kernel_size", Dims{k, k});
                    op.attrs.set("padding", Dims{k / 2, k / 2});
                    op.attrs.set("groups", w.groups);
                    return b.op(op, {s.input(b, {batch, w.cin, size, size}), s.param(b, {w.cout, perGroup, k, k}),
                                     s.param(b, {w.cout})});
                });
            }
    for (int i = 0; i < 128; ++i) {
        const std::int64_t cin = channels[rng() % 10], size = sizes[rng() % 5], batch = rng() % 2 ? 8 : 1;
        const std::int64_t k = (rng() % 3 == 0) ? 1 : 3, stride = rng() % 4 == 0 ? 2 : 1;
        const int kind = int(rng() % 4); // dense, dense, depthwise, grouped
        const std::int64_t groupChoices[] = {2, 3, 4, 8};
        const std::int64_t groups = kind == 2 ? cin : kind == 3 ? groupChoices[rng() % 4] : 1;
        const std::int64_t cout = kind == 2 ? cin : channels[rng() % 10];
        if (cin % groups || cout % groups)
            continue;
        const std::int64_t outSize = (size + stride - 1) / stride;
        const double flops = 2.0 * double(batch * cout * outSize * outSize) * double(cin / groups * k * k);
        s.add(flops, [&](GraphBuilder& b) {
            Op op = edit::defaultOp(OpKind::Conv);
            op.attrs.set("kernel_size", Dims{k, k});
            op.attrs.set("stride", Dims{stride, stride});
            op.attrs.set("padding", Dims{k / 2, k / 2});
            op.attrs.set("groups", groups);
            return b.op(
                op, {s.input(b, {batch, cin, size, size}), s.param(b, {cout, cin / groups, k, k}), s.param(b, {cout})});
        });
    }
}

void elementwise(double maxGflop, std::vector<SamplerGraph>& out)
{
    SamplerSet s("elementwise", maxGflop, out);
    const char* unary[] = {"Relu", "Gelu", "GeluApprox", "Tanh", "Sigmoid"};
    int i = 0;
    // From 2^6 elements (a small MLP's or a classifier's activations, launch-bound) to 2^24.
    for (int lg = 6; lg <= 24; ++lg)
        for (int v = 0; v < 4; ++v) {
            const std::int64_t inner = std::int64_t(1) << std::min(lg, 10 + v);
            const std::int64_t rows = (std::int64_t(1) << lg) / inner;
            const int kind = i++ % 4;
            s.add(double(rows * inner) * 8, [&](GraphBuilder& b) {
                const NodeId x = s.input(b, {rows, inner});
                switch (kind) {
                case 0:
                    return b.sub(OpKind::Binary, "Add", {x, s.input(b, {rows, inner})});
                case 1:
                    return b.sub(OpKind::Binary, "Add", {x, s.param(b, {inner})});
                case 2:
                    return b.sub(OpKind::Binary, "Mul", {x, s.input(b, {rows, inner})});
                default:
                    return b.sub(OpKind::Activation, unary[(i / 4) % 5], {x});
                }
            });
        }
    // ONNX's Sum of two (a residual add as some exporters write it).
    for (int lg = 10; lg <= 22; lg += 2) {
        const std::int64_t elements = std::int64_t(1) << lg;
        s.add(double(elements) * 8, [&](GraphBuilder& b) {
            return b.op(OpKind::Sum, {s.input(b, {elements / 64, 64}), s.input(b, {elements / 64, 64})});
        });
    }
}

// Inference batch norm over NCHW activations (a CNN's Conv, BatchNorm, Relu when nothing fuses them), in the norm
// class.
void batchNorms(SamplerSet& s)
{
    for (std::int64_t batch : {1, 8})
        for (std::int64_t c : {16, 64, 256})
            for (std::int64_t hw : {7, 28, 56})
                s.add(double(batch * c * hw * hw) * 4, [&](GraphBuilder& b) {
                    return b.op(edit::defaultOp(OpKind::BatchNorm),
                                {s.input(b, {batch, c, hw, hw}), s.param(b, {c}), s.param(b, {c}), s.param(b, {c}),
                                 s.param(b, {c})});
                });
}

void rowOps(double maxGflop, std::vector<SamplerGraph>& out)
{
    for (const char* cls : {"norm", "softmax"}) {
        SamplerSet s(cls, maxGflop, out);
        for (std::int64_t rows : {1, 32, 256, 2048, 8192})
            for (std::int64_t cols : {10, 64, 256, 768, 1024, 4096}) // 10: a classifier's softmax
                s.add(double(rows * cols) * 8, [&](GraphBuilder& b) {
                    const NodeId x = s.input(b, {rows, cols});
                    if (std::string(cls) == "softmax")
                        return b.op(OpKind::Softmax, {x});
                    return b.op(OpKind::LayerNorm, {x, s.param(b, {cols}), s.param(b, {cols})});
                });
        if (std::string(cls) == "norm")
            batchNorms(s);
    }
}

void pools(double maxGflop, std::vector<SamplerGraph>& out)
{
    SamplerSet s("pool", maxGflop, out);
    for (std::int64_t c : {16, 64, 256})
        for (std::int64_t size : {7, 14, 28, 56, 112})
            for (std::int64_t batch : {1, 8})
                for (const bool global : {false, true}) // a 2x2 max pool, or a global average (a CNN's head)
                    s.add(double(batch * c * size * size), [&](GraphBuilder& b) {
                        Op op = edit::defaultOp(OpKind::Pool);
                        op.attrs.set("kind", std::string(global ? "Avg" : "Max"));
                        op.attrs.set("kernel_size", global ? Dims{size, size} : Dims{2, 2});
                        op.attrs.set("stride", global ? Dims{size, size} : Dims{2, 2});
                        return b.op(op, {s.input(b, {batch, c, size, size})});
                    });
}

void transposes(double maxGflop, std::vector<SamplerGraph>& out)
{
    SamplerSet s("layout", maxGflop, out);
    for (std::int64_t a : {4, 16, 64})
        for (std::int64_t c : {16, 64, 256})
            for (std::int64_t hw : {8, 32})
                s.add(double(a * c * hw * hw), [&](GraphBuilder& b) {
                    Op op = edit::defaultOp(OpKind::Transpose);
                    op.attrs.set("perm", Dims{0, 2, 1, 3});
                    return b.op(op, {s.input(b, {a, c, hw, hw})});
                });
    // ConstantOfShape fills (ONNX exports make masks and, in some model-zoo files, every weight so), of the sizes
    // of conv weights and of activations.
    for (const Dims& dims :
         {Dims{64}, Dims{512}, Dims{64, 3, 7, 7}, Dims{256, 64, 1, 1}, Dims{256, 256, 3, 3}, Dims{2048, 512, 1, 1},
          Dims{512, 512, 3, 3}, Dims{4096, 4096}, Dims{1, 1, 128, 128}, Dims{8, 1, 512, 512}})
        s.add(double(std::accumulate(dims.begin(), dims.end(), std::int64_t(1), std::multiplies<>())),
              [&](GraphBuilder& b) {
                  std::vector<std::uint8_t> bytes(dims.size() * sizeof(std::int64_t));
                  std::memcpy(bytes.data(), dims.data(), bytes.size()); // little-endian int64, as ONNX stores it
                  const NodeId shape =
                      b.constant("shape" + std::to_string(dims.size()) + "_" + std::to_string(dims[0]),
                                 Shape::of({std::int64_t(dims.size())}, DType::I64), makeTensorData(std::move(bytes)));
                  return b.op(OpKind::ConstantOfShape, {shape});
              });
    // ShuffleNet's channel shuffle: [batch, groups, channels per group, h, w] -> [batch, per group, groups, h, w].
    for (std::int64_t batch : {1, 8})
        for (std::int64_t groups : {2, 3, 4, 8})
            for (std::int64_t perGroup : {8, 32})
                for (std::int64_t hw : {14, 56}) {
                    s.add(double(batch * groups * perGroup * hw * hw), [&](GraphBuilder& b) {
                        Op op = edit::defaultOp(OpKind::Transpose);
                        op.attrs.set("perm", Dims{0, 2, 1, 3, 4});
                        return b.op(op, {s.input(b, {batch, groups, perGroup, hw, hw})});
                    });
                }
    // Exported attention's head split [batch, seq, heads, head_dim] -> [batch, heads, seq, head_dim], and the keys'
    // -> [batch, heads, head_dim, seq].
    for (std::int64_t batch : {1, 8})
        for (std::int64_t seq : {16, 32, 128, 512})
            for (const auto& shape : {std::pair<std::int64_t, std::int64_t>{4, 16}, {12, 64}})
                for (const bool keys : {false, true}) {
                    const std::int64_t heads = shape.first, dim = shape.second; // captured below: no binding
                    s.add(double(batch * seq * heads * dim), [&](GraphBuilder& b) {
                        Op op = edit::defaultOp(OpKind::Transpose);
                        op.attrs.set("perm", keys ? Dims{0, 2, 3, 1} : Dims{0, 2, 1, 3});
                        return b.op(op, {s.input(b, {batch, seq, heads, dim})});
                    });
                }
}

} // namespace

std::vector<SamplerGraph> kernelSamplerGraphs(double maxGflop)
{
    std::vector<SamplerGraph> out;
    matmuls(maxGflop, out);
    attentions(maxGflop, out);
    convs(maxGflop, out);
    elementwise(maxGflop, out);
    rowOps(maxGflop, out);
    pools(maxGflop, out);
    transposes(maxGflop, out);
    return out;
}

} // namespace costscope
