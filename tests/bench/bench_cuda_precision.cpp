// SPDX-License-Identifier: MIT
// Per-precision GEMM predictions against cuBLAS on the GPU machine (no Qt there). Calibrates the GPU (the GEMM grid
// in fp32, tf32, fp16, bf16 and fp8 where it has them: cuda_calibrate.h), then at shapes the grid does not hold
// (transformer-like, odd aspects) times each precision's GEMM and compares it with what the Costscope model
// predicts for a MatMul node of that shape re-typed by the precision what-if (edit/precision_transform.h): once
// with the calibrated profile, once with a datasheet preset given on the command line (peak ratios only).
// Usage: bench_cuda_precision [PRESET_PROFILE.json] [--json OUT.json]
// Exit status 1 when a calibrated bf16 prediction is off by more than 15 %.
#include "analysis/costscope_cost_model.h"
#include "analysis/profile_io.h"
#include "cuda/cuda_calibrate.h"
#include "cuda/cuda_gemm_timer.h"
#include "cuda/cuda_profile.h"
#include "edit/graph_builder.h"
#include "edit/precision_transform.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

using namespace costscope;

namespace {

struct Shape3 {
    std::int64_t m, k, n;
};

// Held-out shapes: none is on the calibration grid (s×s×s and s×s/4×s for s = 256 … 4096).
const Shape3 kShapes[] = {{768, 768, 768},   {1536, 1536, 1536}, {3072, 3072, 3072},  {2048, 768, 3072},
                          {2048, 3072, 768}, {4096, 1024, 4096}, {8192, 2048, 8192},  {6144, 4096, 1024},
                          {512, 2048, 512},  {16384, 768, 2304}, {4096, 4096, 11008}, {1024, 8192, 1024}};

// Predicted kernel ns of x[m,k] · w[k,n] in `p` under `profile` (the node's time without the host read-back).
double predictedNs(const Shape3& s, Precision p, const DeviceProfile& profile)
{
    edit::GraphBuilder b("gemm");
    const NodeId x = b.leaf(OpKind::Input, "x", costscope::Shape::of({s.m, s.k}));
    const NodeId w = b.leaf(OpKind::Param, "w", costscope::Shape::of({s.k, s.n}));
    const NodeId y = b.op(OpKind::MatMul, {x, w});
    auto g = edit::withPrecision(b.finish({y}), p);
    const GraphCost c = CostscopeCostModel().estimate(*g, profile);
    const NodeCost& n = c.nodes[2];
    return n.totalNs - n.readbackNs - n.syncNs;
}

} // namespace

int main(int argc, char** argv)
{
    std::optional<DeviceProfile> preset;
    std::string jsonOut;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc) {
            jsonOut = argv[++i];
        } else if (auto p = loadProfileFile(a)) {
            preset = *p;
        } else {
            std::fprintf(stderr, "%s\n", p.error().message.c_str());
            return 2;
        }
    }
    CudaCalibrationOptions options;
    options.convolutions = false;
    auto cal = calibrateCuda(0, options);
    if (!cal) {
        std::fprintf(stderr, "calibration: %s\n", cal.error().message.c_str());
        return 1;
    }
    std::printf("device: %s\n", cal->device.c_str());
    for (const std::string& note : cal->precisionNotes)
        std::printf("left out: %s\n", note.c_str());
    const DeviceProfile calibrated = profileFromCudaCalibration(*cal, "calibrated", "gpu", "now", "bench");
    for (const auto& [p, points] : cal->gemmByPrecision) {
        std::printf("grid %s:", std::string(precisionName(p)).c_str());
        for (const auto& g : points)
            std::printf(" %lldx%lldx%lld=%.0fTF", (long long)g.m, (long long)g.k, (long long)g.n,
                        g.flopsPerSecond * 1e-12);
        std::printf("\n");
    }
    auto timer = CudaGemmTimer::create(0, std::size_t(16384) * 8192);
    if (!timer) {
        std::fprintf(stderr, "%s\n", timer.error().message.c_str());
        return 1;
    }
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    int bf16Misses = 0;
    std::printf("%-6s %-18s %10s %10s %8s %10s %8s\n", "prec", "m x k x n", "measured", "calibr.", "err %", "datasheet",
                "err %");
    for (Precision p : {Precision::Fp32, Precision::Tf32, Precision::Fp16, Precision::Bf16, Precision::Fp8}) {
        if (!(*timer)->supports(p))
            continue;
        double sumAbs = 0;
        int count = 0;
        for (const Shape3& s : kShapes) {
            auto seconds = (*timer)->seconds(p, s.m, s.n, s.k, 20);
            if (!seconds) {
                std::printf("%-6s %lldx%lldx%lld: %s\n", std::string(precisionName(p)).c_str(), (long long)s.m,
                            (long long)s.k, (long long)s.n, seconds.error().message.c_str());
                continue;
            }
            const double measured = *seconds * 1e9;
            const double predicted = predictedNs(s, p, calibrated);
            const double err = (predicted - measured) / measured * 100;
            // A plain double (NaN: no preset), not std::optional: GCC 12 -O3 warns that the optional's payload may be
            // uninitialised where nlohmann copies it.
            const bool hasSheet = preset.has_value();
            const double sheet = hasSheet ? predictedNs(s, p, *preset) : NAN;
            const double sheetErr = hasSheet ? (sheet - measured) / measured * 100 : NAN;
            std::printf("%-6s %5lldx%5lldx%5lld %8.1fus %8.1fus %+7.1f %8.1fus %+7.1f\n",
                        std::string(precisionName(p)).c_str(), (long long)s.m, (long long)s.k, (long long)s.n,
                        measured / 1e3, predicted / 1e3, err, hasSheet ? sheet / 1e3 : NAN, sheetErr);
            sumAbs += std::abs(err);
            ++count;
            if (p == Precision::Bf16 && std::abs(err) > 15)
                ++bf16Misses;
            rows.push_back(
                {{"precision", std::string(precisionName(p))},
                 {"m", s.m},
                 {"k", s.k},
                 {"n", s.n},
                 {"measured_ns", measured},
                 {"calibrated_ns", predicted},
                 {"calibrated_error_pct", err},
                 {"datasheet_ns", hasSheet ? nlohmann::ordered_json(sheet) : nlohmann::ordered_json()},
                 {"datasheet_error_pct", hasSheet ? nlohmann::ordered_json(sheetErr) : nlohmann::ordered_json()}});
        }
        if (count > 0)
            std::printf("%s: mean |error| %.1f %% over %d shapes (calibrated)\n", std::string(precisionName(p)).c_str(),
                        sumAbs / count, count);
    }
    if (!jsonOut.empty())
        std::ofstream(jsonOut) << nlohmann::ordered_json{{"device", cal->device}, {"rows", rows}}.dump(2) << '\n';
    std::printf("%s bf16 within 15 %% at every held-out shape (%d outside)\n", bf16Misses == 0 ? "PASS" : "FAIL",
                bf16Misses);
    return bf16Misses == 0 ? 0 : 1;
}
