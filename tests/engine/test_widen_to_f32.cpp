// SPDX-License-Identifier: MIT
// Running fp16/bf16/fp8 graphs by widening them to F32 (engine/widen_to_f32.h, what the CUDA backend does): types,
// data and Cast targets follow exactly, and a real bf16 export (transformers' BERT, 2 layers at width 64, exported by
// torch.onnx's dynamo exporter with external data: scripts/export_hf_models.py --size tiny) run widened on the CPU
// backend matches PyTorch computing the same bf16 weights in fp32.
#include "edit/graph_builder.h"
#include "formats/onnx_import.h"
#include "ir/float_narrow.h"
#include "op_runner.h"
#include "synthetic.h"
#include "tensor_proto.h"
#include "test_paths.h"
#include "widen_to_f32.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace costscope;
using namespace costscope::test;

class TestWidenToF32 : public QObject {
    Q_OBJECT
private slots:
    void typesDataAndCastTargetsWiden();
    void inputsWidenExactly();
    void syntheticNarrowValuesAreTheF32OnesRounded();
    void bf16ExportRunsWidenedLikeFp32Math();
};

void TestWidenToF32::typesDataAndCastTargetsWiden()
{
    edit::GraphBuilder b("g");
    const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({2}, DType::BF16));
    const NodeId w = b.leaf(OpKind::Param, "w", Shape::of({2}, DType::BF16));
    const NodeId ids = b.leaf(OpKind::Input, "ids", Shape::of({2}, DType::I64));
    const NodeId sum = b.sub(OpKind::Binary, "Add", {x, w});
    Op cast = Op::make(OpKind::Cast);
    cast.attrs.set("to", std::string(dtypeName(DType::F16)));
    const NodeId c = b.op(cast, {sum});
    Graph g = b.finish({c, ids});
    const std::vector<float> values = {1.5f, -0.3f};
    std::vector<std::uint8_t> bytes(4);
    for (std::size_t i = 0; i < 2; ++i) {
        const std::uint16_t bits = floatToBf16Bits(values[i]);
        std::memcpy(bytes.data() + 2 * i, &bits, 2);
    }
    g.nodes[*g.indexOf(w)].data = makeTensorData(std::move(bytes));
    g.nodes[*g.indexOf(sum)].shape.dtype = DType::BF16;
    g.nodes[*g.indexOf(c)].shape.dtype = DType::F16;
    QVERIFY(hasNarrowFloats(g));

    const Graph wide = widenedToF32(g);
    QVERIFY(!hasNarrowFloats(wide));
    for (NodeId id : {x, w, sum, c})
        QCOMPARE(wide.find(id)->shape.dtype, DType::F32);
    QCOMPARE(wide.find(ids)->shape.dtype, DType::I64);
    QCOMPARE(*wide.find(c)->op.attrs.getString("to"), std::string(dtypeName(DType::F32)));
    const auto& data = *wide.find(w)->data;
    QCOMPARE(data.size(), std::size_t(8));
    for (std::size_t i = 0; i < 2; ++i) {
        float f = 0;
        std::memcpy(&f, data.data() + 4 * i, 4);
        std::uint32_t want = std::uint32_t(floatToBf16Bits(values[i])) << 16; // bf16 is fp32's upper half
        float wantF = 0;
        std::memcpy(&wantF, &want, 4);
        QCOMPARE(f, wantF);
    }
    QCOMPARE(g.find(w)->shape.dtype, DType::BF16); // the source graph is left as it was
}

void TestWidenToF32::inputsWidenExactly()
{
    HostTensor h({3}, DType::F16);
    const std::uint16_t bits[3] = {floatToHalfBits(0.5f), floatToHalfBits(-2.0f), floatToHalfBits(65504.0f)};
    std::memcpy(h.bytes(), bits, sizeof bits);
    const HostTensor f = widenedToF32(h);
    QCOMPARE(f.dtype(), DType::F32);
    QCOMPARE(f.values<float>()[0], 0.5f);
    QCOMPARE(f.values<float>()[1], -2.0f);
    QCOMPARE(f.values<float>()[2], 65504.0f);
    HostTensor e({1}, DType::F8E4M3);
    e.bytes()[0] = std::byte(floatToE4M3Bits(448.0f));
    QCOMPARE(widenedToF32(e).values<float>()[0], 448.0f);
    const HostTensor ids = i64({2}, {4, 5});
    QCOMPARE(widenedToF32(ids).dtype(), DType::I64); // not a float: unchanged
}

void TestWidenToF32::syntheticNarrowValuesAreTheF32OnesRounded()
{
    // A re-typed graph without weights runs on the same (rounded) weights and inputs as its fp32 form, not zeros.
    HostTensor wide({64}, DType::F32), bf16({64}, DType::BF16), f16({64}, DType::F16);
    fillSynthetic(wide, 11);
    fillSynthetic(bf16, 11);
    fillSynthetic(f16, 11);
    const HostTensor ramp = arangeInput({64}, DType::F32), bf16Ramp = arangeInput({64}, DType::BF16);
    bool nonZero = false;
    for (std::size_t i = 0; i < 64; ++i) {
        QCOMPARE(bf16.values<std::uint16_t>()[i], floatToBf16Bits(wide.values<float>()[i]));
        QCOMPARE(f16.values<std::uint16_t>()[i], floatToHalfBits(wide.values<float>()[i]));
        QCOMPARE(bf16Ramp.values<std::uint16_t>()[i], floatToBf16Bits(ramp.values<float>()[i]));
        nonZero = nonZero || bf16.values<std::uint16_t>()[i] != 0;
    }
    QVERIFY(nonZero);
}

void TestWidenToF32::bf16ExportRunsWidenedLikeFp32Math()
{
    if (!onnxImportAvailable())
        QSKIP("this build has no ONNX import");
    const QString dir = testDataPath("hf");
    std::ifstream file((dir + "/bert_tiny_bf16.onnx").toStdString(), std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    auto g = importOnnx(text.str(), nullptr, dir.toStdString());
    QVERIFY2(g, g ? "" : g.error().message.c_str());
    QVERIFY(hasNarrowFloats(*g));
    std::vector<HostTensor> inputs;
    for (const char* name : {"input0", "input1"}) {
        auto t = readTensorProtoFile((dir + "/bert_tiny_bf16." + name + ".pb").toStdString());
        QVERIFY(t);
        inputs.push_back(*t);
    }
    auto want = readTensorProtoFile((dir + "/bert_tiny_bf16.ref_fp32math.pb").toStdString());
    QVERIFY(want);
    auto got = runGraph(widenedToF32(*g), inputs);
    QVERIFY2(got, got ? "" : got.error().message.c_str());
    QCOMPARE(got->dtype(), DType::F32);
    QCOMPARE(got->dims(), want->dims());
    double worst = 0;
    for (std::uint64_t i = 0; i < want->elements(); ++i)
        worst = std::max(worst, std::abs(got->valueAsDouble(i) - want->valueAsDouble(i)));
    // fp32 against fp32 on the same bf16 weights: summation order only (the output's values are about 1).
    QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));
}

QTEST_GUILESS_MAIN(TestWidenToF32)
#include "test_widen_to_f32.moc"
