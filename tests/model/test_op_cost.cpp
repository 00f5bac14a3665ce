// SPDX-License-Identifier: MIT
// FLOPs and bytes per op kind against hand counts.
#include "analysis/op_cost.h"

#include <QtTest>

using namespace costscope;

namespace {

Shape f32(std::vector<std::int64_t> d)
{
    return Shape::of(std::move(d), DType::F32);
}

// A node of `kind` over input shapes given as standalone tensors.
struct Case {
    std::vector<Shape> inputs;
    Node node;

    OpWork work(const Bindings& b = {}) const
    {
        InputShapes in;
        for (const Shape& s : inputs)
            in.push_back(&s);
        return opWork(node, in, b);
    }
};

Case make(OpKind kind, std::vector<Shape> inputs, Shape out, Attrs attrs = {})
{
    Case c;
    c.inputs = std::move(inputs);
    c.node.id = 99;
    c.node.op = Op::make(kind, std::move(attrs));
    c.node.shape = std::move(out);
    return c;
}

Attrs attrs(std::initializer_list<std::pair<std::string, AttrValue>> list)
{
    Attrs a;
    for (const auto& [k, v] : list)
        a.set(k, v);
    return a;
}

} // namespace

class TestOpCost : public QObject {
    Q_OBJECT

private slots:
    void matmul()
    {
        OpWork w = make(OpKind::MatMul, {f32({4, 8}), f32({8, 16})}, f32({4, 16})).work();
        QCOMPARE(w.flops, 1024.0);            // 2·4·8·16
        QCOMPARE(w.bytes, std::uint64_t(896)); // (32 + 128 + 64) · 4
        QCOMPARE(w.gemmM, 4);
        QCOMPARE(w.gemmK, 8);
        QCOMPARE(w.gemmN, 16);
        OpWork batched = make(OpKind::MatMul, {f32({2, 4, 8}), f32({2, 8, 16})}, f32({2, 4, 16})).work();
        QCOMPARE(batched.flops, 2048.0);
        QCOMPARE(batched.bytes, std::uint64_t(1792));
    }

    void fusedMatmulEpilogue()
    {
        OpWork w = make(OpKind::FusedMatMulBiasAct, {f32({4, 8}), f32({8, 16}), f32({16})}, f32({4, 16}),
                        attrs({{"activation", std::string("Gelu")}}))
                       .work();
        QCOMPARE(w.flops, 1600.0);             // 1024 + 64 · (1 bias + 8 Gelu)
        QCOMPARE(w.bytes, std::uint64_t(960)); // (32 + 128 + 16 + 64) · 4
    }

    void gemm()
    {
        OpWork w = make(OpKind::Gemm, {f32({4, 8}), f32({16, 8}), f32({16})}, f32({4, 16}),
                        attrs({{"trans_b", std::int64_t(1)}, {"alpha", 2.0}}))
                       .work();
        QCOMPARE(w.flops, 1152.0); // 1024 + alpha 64 + C 64
        QCOMPARE(w.gemmK, 8);
        OpWork transA = make(OpKind::Gemm, {f32({8, 4}), f32({8, 16})}, f32({4, 16}),
                             attrs({{"trans_a", true}}))
                            .work();
        QCOMPARE(transA.flops, 1024.0);
    }

    void conv()
    {
        OpWork w = make(OpKind::Conv, {f32({1, 3, 8, 8}), f32({4, 3, 3, 3}), f32({4})}, f32({1, 4, 6, 6}),
                        attrs({{"kernel_size", std::vector<std::int64_t>{3, 3}}}))
                       .work();
        QCOMPARE(w.flops, 7920.0);              // 2·1·4·36·3·9 + bias 144
        QCOMPARE(w.bytes, std::uint64_t(1792)); // (192 + 108 + 4 + 144) · 4
        OpWork grouped = make(OpKind::Conv, {f32({1, 4, 8, 8}), f32({4, 2, 3, 3})}, f32({1, 4, 6, 6}),
                              attrs({{"groups", std::int64_t(2)}}))
                             .work();
        QCOMPARE(grouped.flops, 5184.0); // 2·144·(4/2)·9
        QCOMPARE(grouped.gemmN, 2);
    }

    void convTranspose()
    {
        OpWork w = make(OpKind::ConvTranspose, {f32({1, 2, 4, 4}), f32({2, 3, 3, 3})}, f32({1, 3, 6, 6})).work();
        QCOMPARE(w.flops, 1728.0); // 2 · 32 inputs · 3·9 outputs each
    }

    void pooling()
    {
        auto k2 = std::vector<std::int64_t>{2, 2};
        QCOMPARE(make(OpKind::Pool, {f32({1, 1, 4, 4})}, f32({1, 1, 2, 2}),
                      attrs({{"kind", std::string("Max")}, {"kernel_size", k2}}))
                     .work()
                     .flops,
                 16.0);
        QCOMPARE(make(OpKind::Pool, {f32({1, 1, 4, 4})}, f32({1, 1, 2, 2}),
                      attrs({{"kind", std::string("Avg")}, {"kernel_size", k2}}))
                     .work()
                     .flops,
                 20.0);
        OpWork g = make(OpKind::GlobalPool, {f32({1, 2, 4, 4})}, f32({1, 2, 1, 1}),
                        attrs({{"kind", std::string("Avg")}}))
                       .work();
        QCOMPARE(g.flops, 34.0);
        QCOMPARE(g.bytes, std::uint64_t(136));
    }

    void norms()
    {
        OpWork ln = make(OpKind::LayerNorm, {f32({2, 8}), f32({8}), f32({8})}, f32({2, 8})).work();
        QCOMPARE(ln.flops, 128.0);
        QCOMPARE(ln.bytes, std::uint64_t(192)); // (16 + 8 + 8 + 16) · 4
        QCOMPARE(make(OpKind::RmsNorm, {f32({2, 8})}, f32({2, 8})).work().flops, 80.0);
        QCOMPARE(make(OpKind::BatchNorm, {f32({1, 2, 2, 2}), f32({2}), f32({2}), f32({2}), f32({2})},
                      f32({1, 2, 2, 2}))
                     .work()
                     .flops,
                 32.0);
        QCOMPARE(make(OpKind::InstanceNorm, {f32({1, 2, 2, 2}), f32({2}), f32({2})}, f32({1, 2, 2, 2}))
                     .work()
                     .flops,
                 64.0);
        QCOMPARE(make(OpKind::Lrn, {f32({1, 2, 2, 2})}, f32({1, 2, 2, 2}), attrs({{"size", std::int64_t(3)}}))
                     .work()
                     .flops,
                 112.0); // (2·3 + 8) · 8
    }

    void softmaxAndReduce()
    {
        QCOMPARE(make(OpKind::Softmax, {f32({2, 8})}, f32({2, 8})).work().flops, 80.0);
        QCOMPARE(make(OpKind::LogSoftmax, {f32({2, 8})}, f32({2, 8})).work().flops, 80.0);
        OpWork sum = make(OpKind::Reduce, {f32({2, 8})}, f32({2}), attrs({{"op", std::string("Sum")}})).work();
        QCOMPARE(sum.flops, 16.0);
        QCOMPARE(sum.bytes, std::uint64_t(72));
        QCOMPARE(make(OpKind::Reduce, {f32({2, 8})}, f32({2}), attrs({{"op", std::string("Mean")}})).work().flops,
                 18.0);
    }

    void attentionGroupedAndMasked()
    {
        // q [b=2, h=4, s=16, d=8], k and v with 2 KV heads.
        auto base = [](AttrValue mask) {
            return make(OpKind::Attention, {f32({2, 4, 16, 8}), f32({2, 2, 16, 8}), f32({2, 2, 16, 8})},
                        f32({2, 4, 16, 8}),
                        attrs({{"num_heads", std::int64_t(4)}, {"head_dim", std::int64_t(8)}, {"mask_kind", mask}}));
        };
        OpWork dense = base(std::string("None")).work();
        QCOMPARE(dense.flops, 75776.0);             // 2048 scores · (4·8 + 5)
        QCOMPARE(dense.bytes, std::uint64_t(12288)); // (1024 + 512 + 512 + 1024) · 4
        QVERIFY(QString::fromStdString(dense.note).contains("4 query heads share 2 KV heads"));
        QCOMPARE(base(std::string("Causal")).work().flops, 40256.0); // 136 of 256 pairs visible
        QCOMPARE(base(RawJson{R"({"SlidingWindow":4})"}).work().flops, 18944.0); // 4 of 16 keys
    }

    void fft()
    {
        // RLX packs 256 complex values as [rows, 512] F32: 4 transforms · 5·256·8.
        QCOMPARE(make(OpKind::Fft, {f32({4, 512})}, f32({4, 512})).work().flops, 40960.0);
        QCOMPARE(make(OpKind::Fft, {Shape::of({4, 256}, DType::C64)}, Shape::of({4, 256}, DType::C64))
                     .work()
                     .flops,
                 40960.0);
    }

    void gatherReadsRows()
    {
        OpWork w = make(OpKind::Gather, {f32({100, 16}), Shape::of({5}, DType::I64)}, f32({5, 16})).work();
        QCOMPARE(w.bytes, std::uint64_t(680)); // 5·8 indices + 2 · 320
        QCOMPARE(w.flops, 0.0);
    }

    void elementwiseBroadcastAndDtypes()
    {
        OpWork add = make(OpKind::Binary, {f32({4, 8}), f32({8})}, f32({4, 8}), attrs({{"op", std::string("Add")}}))
                         .work();
        QCOMPARE(add.flops, 32.0);
        QCOMPARE(add.bytes, std::uint64_t(288)); // (32 + 8 + 32) · 4: the broadcast operand as stored
        auto h = [](std::vector<std::int64_t> d) { return Shape::of(std::move(d), DType::F16); };
        QCOMPARE(make(OpKind::Binary, {h({4, 8}), h({8})}, h({4, 8}), attrs({{"op", std::string("Mul")}}))
                     .work()
                     .bytes,
                 std::uint64_t(144));
        QCOMPARE(make(OpKind::Activation, {f32({4, 8})}, f32({4, 8}), attrs({{"op", std::string("Gelu")}}))
                     .work()
                     .flops,
                 256.0);
        QCOMPARE(make(OpKind::Cast, {f32({4, 8})}, Shape::of({4, 8}, DType::I64)).work().bytes, std::uint64_t(384));
        QCOMPARE(make(OpKind::Sum, {f32({4}), f32({4}), f32({4})}, f32({4})).work().flops, 8.0);
    }

    void layout()
    {
        OpWork reshape = make(OpKind::Reshape, {f32({4, 8})}, f32({32})).work();
        QVERIFY(reshape.free);
        QCOMPARE(reshape.bytes, std::uint64_t(0));
        for (OpKind k : {OpKind::Squeeze, OpKind::Unsqueeze, OpKind::Flatten, OpKind::Identity, OpKind::Dropout,
                         OpKind::Narrow})
            QVERIFY(make(k, {f32({4, 8})}, f32({4, 8})).work().free);
        OpWork transpose = make(OpKind::Transpose, {f32({4, 8})}, f32({8, 4})).work();
        QVERIFY(!transpose.free);
        QCOMPARE(transpose.bytes, std::uint64_t(256));
        QCOMPARE(make(OpKind::Concat, {f32({2, 3}), f32({2, 5})}, f32({2, 8})).work().bytes, std::uint64_t(128));
        QCOMPARE(make(OpKind::Slice, {f32({4, 8})}, f32({2, 8})).work().bytes, std::uint64_t(128));
        QCOMPARE(make(OpKind::Expand, {f32({1, 8})}, f32({4, 8})).work().bytes, std::uint64_t(160));
        QCOMPARE(make(OpKind::ConstantOfShape, {Shape::of({2}, DType::I64)}, f32({4, 8})).work().bytes,
                 std::uint64_t(128));
    }

    void unknownIsMemoryBound()
    {
        Case c = make(OpKind::Unknown, {f32({4, 8})}, f32({4, 8}));
        c.node.op = Op::unknown("FancyOp", "{}");
        OpWork w = c.work();
        QCOMPARE(w.bytes, std::uint64_t(256));
        QCOMPARE(w.flops, 0.0);
        QVERIFY(QString::fromStdString(w.note).contains("unknown op: costed as memory-bound"));
    }

    void unboundSymbolSkips()
    {
        Shape x = f32({0, 8});
        x.dims[0] = Dim::named("batch");
        Case c = make(OpKind::MatMul, {x, f32({8, 16})}, f32({0, 16}));
        c.node.shape.dims[0] = Dim::named("batch");
        QVERIFY(c.work().skipped);
        OpWork bound = c.work({{"batch", 4}});
        QVERIFY(!bound.skipped);
        QCOMPARE(bound.flops, 1024.0);
    }

    void everyCatalogueKindIsCosted()
    {
        for (const OpInfo& info : opCatalogue()) {
            const int n = std::max(info.minInputs, 1);
            std::vector<Shape> in(static_cast<std::size_t>(info.maxInputs == 0 ? 0 : n), f32({2, 4}));
            OpWork w = make(info.kind, in, f32({2, 4})).work();
            QVERIFY2(!w.skipped, info.name.data());
            QVERIFY2(w.free || w.bytes > 0, info.name.data());
        }
    }
};

QTEST_GUILESS_MAIN(TestOpCost)
#include "test_op_cost.moc"
