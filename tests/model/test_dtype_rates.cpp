// SPDX-License-Identifier: MIT
// Per-precision pricing: the peak table and measured GEMM tables of a profile, their JSON, the presets' figures,
// the precision what-if transform and the fp32 → fp16/bf16/fp8 encoders it uses.
#include "analysis/costscope_cost_model.h"
#include "analysis/profile_io.h"
#include "analysis/profile_library.h"
#include "analysis/rlx_cost_model.h"
#include "edit/graph_builder.h"
#include "edit/precision_transform.h"
#include "ir/float_narrow.h"
#include "test_paths.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace costscope;

namespace {

// x [m, k] · w [k, n] in fp32, w stored with data.
Graph gemmGraph(std::int64_t m, std::int64_t k, std::int64_t n)
{
    edit::GraphBuilder b("gemm");
    const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({m, k}));
    const NodeId w = b.leaf(OpKind::Param, "w", Shape::of({k, n}));
    const NodeId y = b.op(OpKind::MatMul, {x, w});
    const NodeId out = b.sub(OpKind::Activation, "Relu", {y});
    return b.finish({out});
}

// A compute-bound device: bandwidth high enough that the GEMM's time is its compute term.
DeviceProfile gpu()
{
    DeviceProfile p;
    p.name = "gpu";
    p.device = Device::Cuda;
    p.sgemmGflops = 50000;
    p.peakGflops = 60000;
    p.memoryBw = 1e9;
    p.dispatchNs = 0;
    p.roundtripNs = 0;
    p.unifiedMemory = true;
    p.dtypeRates.peaks[Precision::Fp32] = {60000, 60000};
    p.dtypeRates.peaks[Precision::Bf16] = {960000, 120000};
    p.dtypeRates.peaks[Precision::Tf32] = {480000, 0};
    return p;
}

std::size_t matmulAt(const Graph& g)
{
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].op.kind == OpKind::MatMul)
            return i;
    return 0;
}

std::string profileJson(const std::string& extra)
{
    return R"({"name": "x", "device": "Cuda")" + extra + "}";
}

} // namespace

class TestDTypeRates : public QObject {
    Q_OBJECT

private slots:
    void bf16GemmRunsAtItsTensorCorePeak()
    {
        const Graph fp32 = gemmGraph(4096, 4096, 4096);
        auto bf16 = edit::withPrecision(fp32, Precision::Bf16);
        QVERIFY(bf16);
        const CostscopeCostModel model;
        const std::size_t mm = matmulAt(fp32);
        const GraphCost a = model.estimate(fp32, gpu());
        const GraphCost b = model.estimate(*bf16, gpu());
        const double flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
        QCOMPARE(a.nodes[mm].computeNs, flops / 50000);
        // The fp32 rate at the shape × 960000 / 60000.
        QCOMPARE(b.nodes[mm].computeNs, flops / (50000.0 * 16));
        // Every tensor takes half the bytes.
        QCOMPARE(b.nodes[mm].bytes * 2, a.nodes[mm].bytes);
        // The Relu is vector work: its class rate doubles with the vector peaks.
        const std::size_t relu = mm + 1;
        QCOMPARE(b.nodes[relu].computeNs * 2, a.nodes[relu].computeNs);
    }

    void measuredTableWinsOverThePeakRatio()
    {
        DeviceProfile p = gpu();
        p.dtypeRates.gemmTables[Precision::Bf16] = {{256, 256, 256, 20000}, {4096, 4096, 4096, 700000}};
        auto g = edit::withPrecision(gemmGraph(4096, 4096, 4096), Precision::Bf16);
        QVERIFY(g);
        const GraphCost c = CostscopeCostModel().estimate(*g, p);
        QCOMPARE(c.nodes[matmulAt(*g)].computeNs, 2.0 * 4096.0 * 4096.0 * 4096.0 / 700000);
        // Below the table it is clamped to its first point, not scaled from fp32.
        auto small = edit::withPrecision(gemmGraph(64, 64, 64), Precision::Bf16);
        QCOMPARE(CostscopeCostModel().estimate(*small, p).nodes[matmulAt(*small)].computeNs,
                 2.0 * 64 * 64 * 64 / 20000);
    }

    void withoutPeaksAReducedGemmCostsItsFp32Rate()
    {
        DeviceProfile p = gpu();
        p.dtypeRates = {};
        auto g = edit::withPrecision(gemmGraph(1024, 1024, 1024), Precision::Fp16);
        QVERIFY(g);
        const GraphCost c = CostscopeCostModel().estimate(*g, p);
        QCOMPARE(c.nodes[matmulAt(*g)].computeNs, 2.0 * 1024 * 1024 * 1024 / 50000);
    }

    // The CUDA backend runs an fp8 GEMM as an FP8 product only where cuBLASLt's FP8 rules allow
    // (analysis/fp8_gemm_rule.h); elsewhere it widens it to F32, and the model prices what runs.
    void fp8GemmsCostWhatTheBackendRuns()
    {
        DeviceProfile p = gpu();
        p.dtypeRates.peaks[Precision::Fp8] = {1920000, 240000};
        auto priced = [&](std::int64_t m) {
            auto g = edit::withPrecision(gemmGraph(m, 4096, 4096), Precision::Fp8);
            return CostscopeCostModel().estimate(*g, p).nodes[matmulAt(*g)];
        };
        const NodeCost fp8 = priced(4096);
        QCOMPARE(fp8.computeNs, 2.0 * 4096.0 * 4096.0 * 4096.0 / (50000.0 * 32)); // the fp8 / fp32 matrix peaks
        QVERIFY(fp8.note.empty());
        const NodeCost widened = priced(100); // m not a multiple of 16: widened to F32
        QCOMPARE(widened.computeNs, 2.0 * 100.0 * 4096.0 * 4096.0 / 50000.0);
        QCOMPARE(widened.note, std::string("fp8 widened to fp32: m = 100 is not a positive multiple of 16"));
    }

    void tf32MarksGemmsAndKeepsFp32Storage()
    {
        const Graph fp32 = gemmGraph(2048, 2048, 2048);
        auto tf32 = edit::withPrecision(fp32, Precision::Tf32);
        QVERIFY(tf32);
        const std::size_t mm = matmulAt(fp32);
        QCOMPARE(tf32->nodes[mm].op.attrs.stringOr(kComputePrecisionAttr, ""), std::string("tf32"));
        QVERIFY(!tf32->nodes[mm + 1].op.attrs.has(kComputePrecisionAttr)); // the Relu is not a GEMM
        for (const Node& n : tf32->nodes)
            QCOMPARE(n.shape.dtype, DType::F32);
        const GraphCost a = CostscopeCostModel().estimate(fp32, gpu());
        const GraphCost b = CostscopeCostModel().estimate(*tf32, gpu());
        QCOMPARE(b.nodes[mm].computeNs * 8, a.nodes[mm].computeNs);
        QCOMPARE(b.nodes[mm].bytes, a.nodes[mm].bytes);
    }

    void transformRetypesFloatTensorsAndTheirData()
    {
        edit::GraphBuilder b("mixed");
        const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({2, 3}));
        const NodeId ids = b.leaf(OpKind::Input, "ids", Shape::of({2}, DType::I64));
        Op cast = edit::defaultOp(OpKind::Cast);
        cast.attrs.set("to", std::string("F32"));
        const NodeId c = b.op(cast, {ids});
        const NodeId sum = b.sub(OpKind::Binary, "Add", {x, x});
        Graph g = b.finish({sum, c});
        Node w;
        w.id = g.nextId();
        w.op = Op::make(OpKind::Constant);
        w.shape = Shape::of({3});
        const float values[] = {1.0f, -2.5f, 448.0f};
        std::vector<std::uint8_t> bytes(sizeof values);
        std::memcpy(bytes.data(), values, sizeof values);
        w.data = makeTensorData(std::move(bytes));
        g.add(w);

        auto bf16 = edit::withPrecision(g, Precision::Bf16);
        QVERIFY(bf16);
        QCOMPARE(bf16->find(x)->shape.dtype, DType::BF16);
        QCOMPARE(bf16->find(sum)->shape.dtype, DType::BF16);
        QCOMPARE(bf16->find(ids)->shape.dtype, DType::I64); // indices stay
        QCOMPARE(bf16->find(c)->shape.dtype, DType::BF16);
        QCOMPARE(bf16->find(c)->op.attrs.stringOr("to", ""), std::string("BF16"));
        const Node* constant = bf16->find(w.id);
        QCOMPARE(constant->data->size(), std::size_t(6));
        std::uint16_t first = 0;
        std::memcpy(&first, constant->data->data(), 2);
        QCOMPARE(first, std::uint16_t(0x3f80));
        QCOMPARE(g.find(x)->shape.dtype, DType::F32); // the original is untouched

        auto fp8 = edit::withPrecision(g, Precision::Fp8);
        QVERIFY(fp8);
        QCOMPARE(fp8->find(x)->shape.dtype, DType::F8E4M3);
        QCOMPARE(fp8->find(w.id)->data->size(), std::size_t(3));
        QCOMPARE(fp8->find(w.id)->data->data()[2], std::uint8_t(0x7e));
    }

    void transformRefusesWhatIsNotADtypeSwap()
    {
        const Graph g = gemmGraph(8, 8, 8);
        auto int8 = edit::withPrecision(g, Precision::Int8);
        QVERIFY(!int8);
        QVERIFY(int8.error().message.find("quantisation") != std::string::npos);
        QVERIFY(!edit::withPrecision(g, Precision::Fp64));
        auto same = edit::withPrecision(g, Precision::Fp32);
        QVERIFY(same);
        QVERIFY(*same == g);

        // Data that is not the F32 array its shape says is named, not silently re-typed.
        Graph bad = g;
        bad.nodes[1].data = makeTensorData(std::vector<std::uint8_t>(10));
        auto r = edit::withPrecision(bad, Precision::Fp16);
        QVERIFY(!r);
        QCOMPARE(r.error().node, std::optional<NodeId>(bad.nodes[1].id));
    }

    void narrowEncodersRoundToNearestEven()
    {
        QCOMPARE(floatToHalfBits(1.0f), std::uint16_t(0x3c00));
        QCOMPARE(floatToHalfBits(-2.0f), std::uint16_t(0xc000));
        QCOMPARE(floatToHalfBits(0.1f), std::uint16_t(0x2e66));
        QCOMPARE(floatToHalfBits(65504.0f), std::uint16_t(0x7bff));
        QCOMPARE(floatToHalfBits(1e6f), std::uint16_t(0x7c00));
        QCOMPARE(floatToHalfBits(5.9604645e-8f), std::uint16_t(0x0001));      // 2^-24, the smallest subnormal
        QCOMPARE(floatToHalfBits(1.0f + 1.0f / 2048), std::uint16_t(0x3c00)); // a tie goes to even
        QCOMPARE(floatToHalfBits(1.0f + 3.0f / 2048), std::uint16_t(0x3c02));
        QCOMPARE(floatToBf16Bits(1.0f), std::uint16_t(0x3f80));
        QCOMPARE(floatToBf16Bits(3.14159265f), std::uint16_t(0x4049));
        QCOMPARE(floatToE4M3Bits(1.0f), std::uint8_t(0x38));
        QCOMPARE(floatToE4M3Bits(-1.5f), std::uint8_t(0xbc));
        QCOMPARE(floatToE4M3Bits(448.0f), std::uint8_t(0x7e));
        QCOMPARE(floatToE4M3Bits(1000.0f), std::uint8_t(0x7e));      // saturates
        QCOMPARE(floatToE4M3Bits(0.001953125f), std::uint8_t(0x01)); // 2^-9, the smallest subnormal
        QCOMPARE(floatToE4M3Bits(0.015625f), std::uint8_t(0x08));    // 2^-6, the smallest normal
        QCOMPARE(floatToE5M2Bits(1.0f), std::uint8_t(0x3c));
        QCOMPARE(floatToE5M2Bits(57344.0f), std::uint8_t(0x7b));
        QCOMPARE(floatToE5M2Bits(-1e6f), std::uint8_t(0xfc)); // -infinity
        QCOMPARE(e4m3BitsToFloat(0x7e), 448.0f);
        QVERIFY(std::isnan(e4m3BitsToFloat(0xff)));
        QCOMPARE(e5m2BitsToFloat(0x7c), INFINITY);
        // Every finite pattern decodes to a value that encodes back to it.
        for (int b = 0; b < 256; ++b) {
            const auto bits = static_cast<std::uint8_t>(b);
            if (!std::isnan(e4m3BitsToFloat(bits)))
                QCOMPARE(floatToE4M3Bits(e4m3BitsToFloat(bits)), bits);
            if (std::isfinite(e5m2BitsToFloat(bits)))
                QCOMPARE(floatToE5M2Bits(e5m2BitsToFloat(bits)), bits);
        }
    }

    void profileJsonRoundTrip()
    {
        DeviceProfile p = gpu();
        p.dtypeRates.gemmTables[Precision::Fp8] = {{1024, 1024, 1024, 500000.5}};
        auto back = profileFromJsonText(profileToJsonText(p), "t");
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QVERIFY(back->dtypeRates == p.dtypeRates);
        // A profile from before the keys loads with no per-precision rates, and saves without the keys.
        auto old = profileFromJsonText(profileJson(""), "old.json");
        QVERIFY(old);
        QVERIFY(old->dtypeRates.empty());
        QVERIFY(profileToJsonText(*old).find("dtype_") == std::string::npos);
    }

    void profileJsonErrorsNameTheKey()
    {
        auto unknown = profileFromJsonText(profileJson(R"(, "dtype_peaks": {"fp4": {"matrix_gflops": 1}})"), "p.json");
        QVERIFY(!unknown);
        QVERIFY2(unknown.error().message.find("p.json: key 'dtype_peaks.fp4': unknown precision 'fp4'")
                     != std::string::npos,
                 unknown.error().message.c_str());
        auto negative =
            profileFromJsonText(profileJson(R"(, "dtype_peaks": {"bf16": {"matrix_gflops": -1}})"), "p.json");
        QVERIFY(!negative);
        QVERIFY(negative.error().message.find("dtype_peaks.bf16.matrix_gflops") != std::string::npos);
        auto table = profileFromJsonText(
            profileJson(R"(, "dtype_gemm_tables": {"bf16": [{"m": 1, "k": 1, "n": 0, "gflops": 1}]})"), "p.json");
        QVERIFY(!table);
        QVERIFY(table.error().message.find("dtype_gemm_tables.bf16[0].n") != std::string::npos);
    }

    void presetsCarryDatasheetPeaks()
    {
        ProfilePaths paths;
        paths.presetDir = costscope::test::sourcePath("resources/profiles").toStdString();
        const ProfileLibrary lib = ProfileLibrary::load(paths);
        const DeviceProfile* h100 = lib.find("nvidia-h100");
        QVERIFY(h100);
        QCOMPARE(h100->dtypeRates.peaks.at(Precision::Bf16).matrixGflops, 989500.0);
        QCOMPARE(h100->dtypeRates.peaks.at(Precision::Fp8).matrixGflops, 1979000.0);
        QCOMPARE(lib.find("nvidia-a100")->dtypeRates.peaks.count(Precision::Fp8), std::size_t(0)); // no FP8
        for (const char* name : {"nvidia-h100", "nvidia-h200", "nvidia-a100", "nvidia-rtx4090", "amd-mi300x"})
            QVERIFY2(lib.find(name)->dtypeRates.peaks.count(Precision::Bf16), name);
        // The issue's complaint: a 4096³ bf16 GEMM on an H100 priced at the fp32 rate, ~15× too slow.
        const Graph fp32 = gemmGraph(4096, 4096, 4096);
        auto bf16 = edit::withPrecision(fp32, Precision::Bf16);
        const std::size_t mm = matmulAt(fp32);
        const double a = CostscopeCostModel().estimate(fp32, *h100).nodes[mm].computeNs;
        const double b = CostscopeCostModel().estimate(*bf16, *h100).nodes[mm].computeNs;
        QVERIFY2(std::abs(a / b - 989500.0 / 67000.0) < 1e-9, qPrintable(QString::number(a / b)));
    }

    void rlxParityIgnoresPrecisionRates()
    {
        const Graph g = gemmGraph(512, 512, 512);
        DeviceProfile plain = gpu();
        plain.dtypeRates = {};
        const RlxCostModel rlx;
        QCOMPARE(rlx.estimate(g, gpu()).totalNs, rlx.estimate(g, plain).totalNs);
        auto bf16 = edit::withPrecision(g, Precision::Bf16);
        QCOMPARE(rlx.estimate(*bf16, gpu()).totalNs, rlx.estimate(*bf16, plain).totalNs);
    }
};

QTEST_GUILESS_MAIN(TestDTypeRates)
#include "test_dtype_rates.moc"
