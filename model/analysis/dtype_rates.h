// SPDX-License-Identifier: MIT
#pragma once
// What a device computes per precision (ir/precision.h): datasheet peaks, and GEMM rates a calibration measured.
// The Costscope model prices a GEMM in precision P at
//   the measured P table at its shape, where the profile has one;
//   else the fp32 rate at its shape × matrix peak(P) / matrix peak(fp32): the same efficiency curve under P's roof;
//   else the fp32 rate (no datasheet figure: a backend that converts computes in fp32).
// Other ops scale their fp32 class rate by vector peak(P) / vector peak(fp32) where both are known. Bytes need
// nothing here: every tensor's dtype already sets its size (op_cost.h).

#include "analysis/piecewise_linear.h"
#include "ir/precision.h"

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace costscope {

struct DeviceProfile;

// Dense (no structured sparsity) peaks in GFLOP/s (GOP/s for int8); 0: unknown.
struct PrecisionPeak {
    double matrixGflops = 0; // tensor cores / matrix units: GEMM, Conv, Attention
    double vectorGflops = 0; // the SIMT units: everything else
    bool operator==(const PrecisionPeak&) const = default;
};

// One measured GEMM rate of a precision at a shape.
struct PrecisionGemmPoint {
    std::int64_t m = 0, k = 0, n = 0;
    double gflops = 0;
    bool operator==(const PrecisionGemmPoint&) const = default;
};

struct DTypeRates {
    std::map<Precision, PrecisionPeak> peaks;
    std::map<Precision, std::vector<PrecisionGemmPoint>> gemmTables; // by calibration; fp32 stays in sgemm_table
    bool empty() const { return peaks.empty() && gemmTables.empty(); }
    bool operator==(const DTypeRates&) const = default;
};

// The per-precision rates of one profile, resolved once per pricing pass.
class PrecisionRates {
public:
    explicit PrecisionRates(const DeviceProfile& p);
    // GFLOP/s of an m×k×n GEMM computed in `precision`, given the profile's fp32 rate at that shape.
    double gemm(Precision precision, double fp32Gflops, std::int64_t m, std::int64_t k, std::int64_t n) const;
    // Factor on the fp32 rate of a non-GEMM kernel computed in `precision` (1 where the peaks are unknown).
    double vectorScale(Precision precision) const;

private:
    static constexpr std::size_t kCount = std::size(kAllPrecisions);
    struct Table {
        PiecewiseLinear all, matrix; // as GemmRate: matrix-vector points price only matrix-vector shapes
    };
    std::array<double, kCount> m_gemmScale{};   // 0: no datasheet ratio
    std::array<double, kCount> m_vectorScale{}; // 1 where unknown
    std::array<Table, kCount> m_tables;
};

} // namespace costscope
