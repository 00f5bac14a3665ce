// SPDX-License-Identifier: MIT
// The CPU backend's ONNX ops run by name that came with opsets 18 to 21 and the conformance work after them, checked
// against values computed by hand: later outputs of multi-output ops (a node per output, onnx_output),
// GroupNormalization per group and per channel, CenterCropPad, Col2Im, the picking and scattering ops, depth/space
// moves, Einsum, NonMaxSuppression, RotaryEmbedding and the small signal and sequence ops. The suite
// (scripts/conformance.sh) checks them against ONNX's reference on many more shapes.
#include "op_runner.h"

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
Op named(const std::string& onnxOp, std::initializer_list<std::pair<std::string, AttrValue>> attrs = {})
{
    Op op = Op::unknown(onnxOp);
    for (const auto& [k, v] : attrs)
        op.attrs.set(k, v);
    return op;
}

std::vector<std::int64_t> ints(const HostTensor& t)
{
    std::vector<std::int64_t> v;
    for (std::uint64_t i = 0; i < t.elements(); ++i)
        v.push_back(t.valueAsInt(i));
    return v;
}
} // namespace

class TestCpuOnnxNamedOps : public QObject {
    Q_OBJECT
private slots:
    void laterOutputs();
    void laterOutputWithoutKernelIsAnError();
    void normalisations();
    void cropAndCol2Im();
    void pickingOps();
    void scatterAndGather();
    void depthAndSpace();
    void einsum();
    void nonMaxSuppression();
    void rotaryEmbedding();
    void signalAndSequenceOps();
    void gridSampleAndAffineGrid();
    void lpPool();
    void dynamicQuantizeLinear();
    void dftAndQLinearMatMul();
    void unique();
    void recurrent();
};

void TestCpuOnnxNamedOps::laterOutputs()
{
    const HostTensor x = f32({2, 3}, {1, 5, 2, 7, 0, 7});
    auto values = RUN_OK(runOp(named("TopK"), {x, i64({1}, {2})}));
    QVERIFY(values);
    QVERIFY(sameFloats(*values, {2, 2}, {5, 2, 7, 7}));
    auto indices = RUN_OK(
        runOp(named("TopK", {{"onnx_output", std::int64_t{1}}}), {x, i64({1}, {2})}, Shape::of({2, 2}, DType::I64)));
    QVERIFY(indices);
    QCOMPARE(ints(*indices), (std::vector<std::int64_t>{1, 2, 0, 2})); // ties keep the lower index first

    auto part = RUN_OK(runOp(named("Split", {{"onnx_output", std::int64_t{2}}, {"num_outputs", std::int64_t{3}}}),
                             {f32({7}, {0, 1, 2, 3, 4, 5, 6})}));
    QVERIFY(part);
    QVERIFY(sameFloats(*part, {1}, {6}));

    auto invStd = RUN_OK(runOp(named("LayerNormalization", {{"onnx_output", std::int64_t{2}}, {"epsilon", 0.0}}),
                               {f32({1, 2}, {1, 3}), f32({2}, {1, 1})}, Shape::of({1, 1})));
    QVERIFY(invStd);
    QVERIFY(sameFloats(*invStd, {1, 1}, {1}));

    // Attention's present_key: past_key with K after it, [batch, kv_heads, past + seq, size].
    const HostTensor q = f32({1, 1, 1, 1}, {1}), k = f32({1, 1, 1, 1}, {2}), v = f32({1, 1, 1, 1}, {3});
    auto present = RUN_OK(runOp(named("Attention", {{"onnx_output", std::int64_t{1}}}),
                                {q, k, v, f32({1, 1, 1, 1}, {0}), f32({1, 1, 1, 1}, {9}), f32({1, 1, 1, 1}, {8})}));
    QVERIFY(present);
    QVERIFY(sameFloats(*present, {1, 1, 2, 1}, {9, 2}));

    auto logProb = RUN_OK(runOp(named("SoftmaxCrossEntropyLoss", {{"onnx_output", std::int64_t{1}}}),
                                {f32({1, 2}, {0, 0}), i64({1}, {1})}));
    QVERIFY(logProb);
    QVERIFY(sameFloats(*logProb, {1, 2}, {-0.6931472f, -0.6931472f}));
}

void TestCpuOnnxNamedOps::laterOutputWithoutKernelIsAnError()
{
    auto r = runOp(named("ArgMax", {{"onnx_output", std::int64_t{1}}}), {f32({2}, {1, 2})});
    QVERIFY(!r);
    QVERIFY2(r.error().message.find("computes only output 0 of op ArgMax, not output 1") != std::string::npos,
             r.error().message.c_str());
}

void TestCpuOnnxNamedOps::normalisations()
{
    // Two groups of two channels, one value each: every group normalises to -1, 1 (eps 0).
    const HostTensor x = f32({1, 4, 1}, {1, 3, 10, 30});
    auto perGroup = RUN_OK(runOp(named("GroupNormalization", {{"num_groups", std::int64_t{2}}, {"epsilon", 0.0}}),
                                 {x, f32({2}, {1, 2}), f32({2}, {0, 5})}));
    QVERIFY(perGroup);
    QVERIFY(sameFloats(*perGroup, {1, 4, 1}, {-1, 1, 3, 7}));
    auto perChannel = RUN_OK(runOp(named("GroupNormalization", {{"num_groups", std::int64_t{2}}, {"epsilon", 0.0}}),
                                   {x, f32({4}, {1, 2, 3, 4}), f32({4}, {0, 0, 0, 1})}));
    QVERIFY(perChannel);
    QVERIFY(sameFloats(*perChannel, {1, 4, 1}, {-1, 2, -3, 5}));
    auto det = RUN_OK(runOp(named("Det"), {f32({2, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0})}));
    QVERIFY(det);
    QVERIFY(sameFloats(*det, {2}, {-2, -1})); // the second needs a row swap
    auto l2 = RUN_OK(runOp(named("LpNormalization"), {f32({1, 2}, {3, 4})}));
    QVERIFY(l2);
    QVERIFY(sameFloats(*l2, {1, 2}, {0.6f, 0.8f}));
}

void TestCpuOnnxNamedOps::cropAndCol2Im()
{
    // 1 x 4 cropped to 2 (the middle two) and padded to 6 (one zero each side).
    auto crop = RUN_OK(runOp(named("CenterCropPad"), {f32({1, 4}, {1, 2, 3, 4}), i64({2}, {1, 2})}));
    QVERIFY(crop);
    QVERIFY(sameFloats(*crop, {1, 2}, {2, 3}));
    auto pad = RUN_OK(runOp(named("CenterCropPad", {{"axes", std::vector<std::int64_t>{1}}}),
                            {f32({1, 4}, {1, 2, 3, 4}), i64({1}, {6})}));
    QVERIFY(pad);
    QVERIFY(sameFloats(*pad, {1, 6}, {0, 1, 2, 3, 4, 0}));
    // Blocks of 2 over an image of 3 (stride 1): two positions, overlapping in the middle pixel, which sums.
    auto image = RUN_OK(runOp(named("Col2Im"), {f32({1, 2, 2}, {1, 2, 10, 20}), i64({1}, {3}), i64({1}, {2})}));
    QVERIFY(image);
    QVERIFY(sameFloats(*image, {1, 1, 3}, {1, 12, 20}));
}

void TestCpuOnnxNamedOps::pickingOps()
{
    auto hard = RUN_OK(runOp(named("Hardmax"), {f32({2, 3}, {1, 5, 5, 0, -1, -2})}));
    QVERIFY(hard);
    QVERIFY(sameFloats(*hard, {2, 3}, {0, 1, 0, 1, 0, 0})); // the first of equal maxima
    auto hot = RUN_OK(runOp(named("OneHot"), {i64({2}, {2, -1}), f32({}, {3}), f32({2}, {0, 7})}));
    QVERIFY(hot);
    QVERIFY(sameFloats(*hot, {2, 3}, {0, 0, 7, 0, 0, 7}));
    auto compressed = RUN_OK(
        runOp(named("Compress", {{"axis", std::int64_t{1}}}), {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({3}, {1, 0, 1})}));
    QVERIFY(compressed);
    QVERIFY(sameFloats(*compressed, {2, 2}, {1, 3, 4, 6}));
    auto cumprod = RUN_OK(runOp(named("CumProd", {{"reverse", std::int64_t{1}}}), {f32({3}, {2, 3, 4}), i64({}, {0})}));
    QVERIFY(cumprod);
    QVERIFY(sameFloats(*cumprod, {3}, {24, 12, 4}));
}

void TestCpuOnnxNamedOps::scatterAndGather()
{
    auto scattered =
        RUN_OK(runOp(named("ScatterElements", {{"axis", std::int64_t{1}}, {"reduction", std::string("add")}}),
                     {f32({1, 3}, {1, 1, 1}), i64({1, 2}, {2, 2}), f32({1, 2}, {5, 6})}));
    QVERIFY(scattered);
    QVERIFY(sameFloats(*scattered, {1, 3}, {1, 1, 12}));
    auto nd = RUN_OK(runOp(named("ScatterND", {{"reduction", std::string("max")}}),
                           {f32({2, 2}, {1, 2, 3, 4}), i64({1, 1}, {1}), f32({1, 2}, {5, 0})}));
    QVERIFY(nd);
    QVERIFY(sameFloats(*nd, {2, 2}, {1, 2, 5, 4}));
    auto gathered = RUN_OK(runOp(named("GatherND"), {f32({2, 2}, {1, 2, 3, 4}), i64({2, 2}, {1, 0, 0, 1})}));
    QVERIFY(gathered);
    QVERIFY(sameFloats(*gathered, {2}, {3, 2}));
}

void TestCpuOnnxNamedOps::depthAndSpace()
{
    // Four channels of 1 x 1 to one channel of 2 x 2 and back.
    const HostTensor depth = f32({1, 4, 1, 1}, {1, 2, 3, 4});
    auto space = RUN_OK(runOp(named("DepthToSpace", {{"blocksize", std::int64_t{2}}}), {depth}));
    QVERIFY(space);
    QVERIFY(sameFloats(*space, {1, 1, 2, 2}, {1, 2, 3, 4}));
    auto back = RUN_OK(runOp(named("SpaceToDepth", {{"blocksize", std::int64_t{2}}}), {*space}));
    QVERIFY(back);
    QVERIFY(sameFloats(*back, {1, 4, 1, 1}, {1, 2, 3, 4}));
    // CRD with two channels of blocks: channel c's block is channels c*4 .. c*4+3.
    auto crd = RUN_OK(runOp(named("DepthToSpace", {{"blocksize", std::int64_t{2}}, {"mode", std::string("CRD")}}),
                            {f32({1, 8, 1, 1}, {1, 2, 3, 4, 5, 6, 7, 8})}));
    QVERIFY(crd);
    QVERIFY(sameFloats(*crd, {1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
    auto dcr = RUN_OK(
        runOp(named("DepthToSpace", {{"blocksize", std::int64_t{2}}}), {f32({1, 8, 1, 1}, {1, 2, 3, 4, 5, 6, 7, 8})}));
    QVERIFY(dcr);
    QVERIFY(sameFloats(*dcr, {1, 2, 2, 2}, {1, 3, 5, 7, 2, 4, 6, 8}));
}

void TestCpuOnnxNamedOps::einsum()
{
    const HostTensor a = f32({2, 2}, {1, 2, 3, 4}), b = f32({2, 2}, {5, 6, 7, 8});
    auto product = RUN_OK(runOp(named("Einsum", {{"equation", std::string("ij,jk->ik")}}), {a, b}));
    QVERIFY(product);
    QVERIFY(sameFloats(*product, {2, 2}, {19, 22, 43, 50}));
    auto trace = RUN_OK(runOp(named("Einsum", {{"equation", std::string("ii")}}), {a}));
    QVERIFY(trace);
    QVERIFY(sameFloats(*trace, {}, {5}));
    auto implicit = RUN_OK(runOp(named("Einsum", {{"equation", std::string("ji")}}), {a})); // output "ij": a transpose
    QVERIFY(implicit);
    QVERIFY(sameFloats(*implicit, {2, 2}, {1, 3, 2, 4}));
    auto batched =
        RUN_OK(runOp(named("Einsum", {{"equation", std::string("...ij->...j")}}), {f32({2, 1, 2}, {1, 2, 3, 4})}));
    QVERIFY(batched);
    QVERIFY(sameFloats(*batched, {2, 2}, {1, 2, 3, 4}));
}

void TestCpuOnnxNamedOps::nonMaxSuppression()
{
    // Box 1 scores highest; box 0 overlaps it (IoU 0.82) and is suppressed; box 2 lies apart. At most two boxes.
    const HostTensor boxes = f32({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11});
    const HostTensor scores = f32({1, 1, 3}, {0.9f, 0.95f, 0.3f});
    auto kept = RUN_OK(runOp(named("NonMaxSuppression"), {boxes, scores, i64({1}, {2}), f32({1}, {0.5f})},
                             Shape::of({2, 3}, DType::I64)));
    QVERIFY(kept);
    QCOMPARE(ints(*kept), (std::vector<std::int64_t>{0, 0, 1, 0, 0, 2}));
}

void TestCpuOnnxNamedOps::rotaryEmbedding()
{
    // One head of size 2 at positions 0 and 1: the second token rotates by 90 degrees (cos 0, sin 1).
    const HostTensor x = f32({1, 1, 2, 2}, {1, 2, 1, 2});
    auto rotated =
        RUN_OK(runOp(named("RotaryEmbedding"), {x, f32({2, 1}, {1, 0}), f32({2, 1}, {0, 1}), i64({1, 2}, {0, 1})}));
    QVERIFY(rotated);
    QVERIFY(sameFloats(*rotated, {1, 1, 2, 2}, {1, 2, -2, 1}));
}

void TestCpuOnnxNamedOps::signalAndSequenceOps()
{
    auto bits =
        RUN_OK(runOp(named("BitCast", {{"to", std::int64_t{6}}}), {f32({1}, {1.0f})}, Shape::of({1}, DType::I32)));
    QVERIFY(bits);
    QCOMPARE(bits->valueAsInt(0), std::int64_t{0x3f800000});
    auto hann = RUN_OK(runOp(named("HannWindow", {{"periodic", std::int64_t{0}}}), {i64({}, {3})}));
    QVERIFY(hann);
    QVERIFY(sameFloats(*hann, {3}, {0, 1, 0}));
    auto reversed = RUN_OK(runOp(named("ReverseSequence"), {f32({3, 2}, {1, 2, 3, 4, 5, 6}), i64({2}, {3, 1})}));
    QVERIFY(reversed); // [time, batch]: batch 0 reversed over 3 steps, batch 1 over 1
    QVERIFY(sameFloats(*reversed, {3, 2}, {5, 2, 3, 4, 1, 6}));
    // CastLike whose target type is known only at run time; QuantizeLinear of a 1-D input by a scalar scale (the
    // default axis 1 does not apply).
    auto cast = RUN_OK(runOp(named("CastLike"), {f32({2}, {1.9f, -2.5f}), i64({1}, {0})}, Shape::of({2}, DType::I64)));
    QVERIFY(cast);
    QCOMPARE(cast->dtype(), DType::I64);
    QCOMPARE(ints(*cast), (std::vector<std::int64_t>{1, -2}));
    auto quantized =
        RUN_OK(runOp(named("QuantizeLinear"), {f32({3}, {0, 2, 4}), f32({}, {2})}, Shape::of({3}, DType::U8)));
    QVERIFY(quantized);
    QCOMPARE(ints(*quantized), (std::vector<std::int64_t>{0, 1, 2}));
    auto mean = RUN_OK(runOp(named("Mean"), {f32({2, 2}, {1, 2, 3, 4}), f32({2}, {3, 4}), f32({1}, {2})}));
    QVERIFY(mean);
    QVERIFY(sameFloats(*mean, {2, 2}, {2, 8.0f / 3, 8.0f / 3, 10.0f / 3}));
}

void TestCpuOnnxNamedOps::gridSampleAndAffineGrid()
{
    // The identity affine grid of a 2 x 2 image (align_corners 0: pixel centres at -0.5 and 0.5) samples the image
    // back exactly.
    const HostTensor theta = f32({1, 2, 3}, {1, 0, 0, 0, 1, 0});
    auto grid = RUN_OK(runOp(named("AffineGrid"), {theta, i64({4}, {1, 1, 2, 2})}));
    QVERIFY(grid);
    QVERIFY(sameFloats(*grid, {1, 2, 2, 2}, {-0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, 0.5f}));
    const HostTensor image = f32({1, 1, 2, 2}, {1, 2, 3, 4});
    auto same = RUN_OK(runOp(named("GridSample"), {image, *grid}));
    QVERIFY(same);
    QVERIFY(sameFloats(*same, {1, 1, 2, 2}, {1, 2, 3, 4}));
    // The centre of the image (0, 0) is the mean of the four pixels; past the right edge, zeros padding halves the
    // weight of the last column, border padding repeats it.
    const HostTensor points = f32({1, 1, 2, 2}, {0, 0, 1, -0.5f});
    auto zeros = RUN_OK(runOp(named("GridSample"), {image, points}));
    QVERIFY(zeros);
    QVERIFY(sameFloats(*zeros, {1, 1, 1, 2}, {2.5f, 1}));
    auto border = RUN_OK(runOp(named("GridSample", {{"padding_mode", std::string("border")}}), {image, points}));
    QVERIFY(border);
    QVERIFY(sameFloats(*border, {1, 1, 1, 2}, {2.5f, 2}));
}

void TestCpuOnnxNamedOps::lpPool()
{
    // L2 over windows of 2 with stride 2: sqrt(3^2 + 4^2) and sqrt(0 + 5^2 + pad 0) with one pad at the end.
    auto pooled = RUN_OK(runOp(named("LpPool", {{"kernel_shape", std::vector<std::int64_t>{2}},
                                                {"strides", std::vector<std::int64_t>{2}},
                                                {"pads", std::vector<std::int64_t>{0, 1}}}),
                               {f32({1, 1, 3}, {3, 4, 5})}));
    QVERIFY(pooled);
    QVERIFY(sameFloats(*pooled, {1, 1, 2}, {5, 5}));
}

void TestCpuOnnxNamedOps::dynamicQuantizeLinear()
{
    // Range [0, 255] (0 always included): scale 1, zero point 0.
    const HostTensor x = f32({3}, {0, 2.4f, 255});
    auto y = RUN_OK(runOp(named("DynamicQuantizeLinear"), {x}, Shape::of({3}, DType::U8)));
    QVERIFY(y);
    QCOMPARE(ints(*y), (std::vector<std::int64_t>{0, 2, 255}));
    auto scale = RUN_OK(runOp(named("DynamicQuantizeLinear", {{"onnx_output", std::int64_t{1}}}), {x}));
    QVERIFY(scale);
    QVERIFY(sameFloats(*scale, {}, {1}));
}

void TestCpuOnnxNamedOps::dftAndQLinearMatMul()
{
    // The DFT of [1, 0, 0, 0] is 1 in every bin; onesided keeps 3; the inverse of the one-sided [4, 0, 0] (Hermitian)
    // is the real constant 1 over 4 samples.
    const HostTensor impulse = f32({1, 4, 1}, {1, 0, 0, 0});
    auto spectrum = RUN_OK(runOp(named("DFT", {{"onesided", std::int64_t{1}}}), {impulse}));
    QVERIFY(spectrum);
    QVERIFY(sameFloats(*spectrum, {1, 3, 2}, {1, 0, 1, 0, 1, 0}));
    auto back = RUN_OK(runOp(named("DFT", {{"onesided", std::int64_t{1}}, {"inverse", std::int64_t{1}}}),
                             {f32({1, 3, 2}, {4, 0, 0, 0, 0, 0})}));
    QVERIFY(back);
    QVERIFY(sameFloats(*back, {1, 4, 1}, {1, 1, 1, 1}));
    // (2 - 1) * 0.5 * (4 - 0) * 1 = 2, quantized by y scale 0.5 and zero point 10: 14.
    HostTensor a({1, 1}, DType::U8), b({1, 1}, DType::U8), zero({}, DType::U8), yZero({}, DType::U8);
    a.values<std::uint8_t>()[0] = 2;
    b.values<std::uint8_t>()[0] = 4;
    zero.values<std::uint8_t>()[0] = 1;
    yZero.values<std::uint8_t>()[0] = 10;
    HostTensor bZero({}, DType::U8);
    auto q =
        RUN_OK(runOp(named("QLinearMatMul"), {a, f32({}, {0.5f}), zero, b, f32({}, {1}), bZero, f32({}, {0.5f}), yZero},
                     Shape::of({1, 1}, DType::U8)));
    QVERIFY(q);
    QCOMPARE(ints(*q), (std::vector<std::int64_t>{14}));
}

void TestCpuOnnxNamedOps::unique()
{
    const HostTensor x = f32({5}, {2, 1, 1, 3, 2});
    auto values = RUN_OK(runOp(named("Unique"), {x}));
    QVERIFY(values);
    QVERIFY(sameFloats(*values, {3}, {1, 2, 3}));
    auto output = [&](std::int64_t k, bool sorted) {
        auto r = runOp(named("Unique", {{"onnx_output", k}, {"sorted", std::int64_t{sorted}}}), {x},
                       Shape::of({3}, DType::I64));
        return r ? ints(*r) : std::vector<std::int64_t>{};
    };
    QCOMPARE(output(1, true), (std::vector<std::int64_t>{1, 0, 3}));       // first occurrences
    QCOMPARE(output(2, true), (std::vector<std::int64_t>{1, 0, 0, 2, 1})); // each element's unique value
    QCOMPARE(output(3, true), (std::vector<std::int64_t>{2, 2, 1}));       // counts
    QCOMPARE(output(3, false), (std::vector<std::int64_t>{2, 2, 1}));      // first seen: 2, 1, 3
    QCOMPARE(output(1, false), (std::vector<std::int64_t>{0, 1, 3}));
}

void TestCpuOnnxNamedOps::recurrent()
{
    // One unit: h1 = tanh(1), h2 = tanh(2 + 0.5 h1).
    const HostTensor x = f32({2, 1, 1}, {1, 2});
    auto y = RUN_OK(
        runOp(named("RNN", {{"hidden_size", std::int64_t{1}}}), {x, f32({1, 1, 1}, {1}), f32({1, 1, 1}, {0.5f})}));
    QVERIFY(y);
    QVERIFY(sameFloats(*y, {2, 1, 1, 1}, {0.7615942f, 0.9830411f}));
    auto last = RUN_OK(runOp(named("RNN", {{"hidden_size", std::int64_t{1}}, {"onnx_output", std::int64_t{1}}}),
                             {x, f32({1, 1, 1}, {1}), f32({1, 1, 1}, {0.5f})}));
    QVERIFY(last);
    QVERIFY(sameFloats(*last, {1, 1, 1}, {0.9830411f}));
    // GRU, one step from h0 = 0 with every weight 1 and R 0: (1 - sigmoid(1)) tanh(1).
    auto gru = RUN_OK(runOp(named("GRU", {{"hidden_size", std::int64_t{1}}}),
                            {f32({1, 1, 1}, {1}), f32({1, 3, 1}, {1, 1, 1}), f32({1, 3, 1}, {0, 0, 0})}));
    QVERIFY(gru);
    QVERIFY(sameFloats(*gru, {1, 1, 1, 1}, {0.2048242f}));
}

QTEST_GUILESS_MAIN(TestCpuOnnxNamedOps)
#include "test_cpu_onnx_named_ops.moc"
