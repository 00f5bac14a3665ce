// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/calibration_tag.h"
#include "analysis/device.h"
#include "analysis/dtype_rates.h"
#include "analysis/graph_composition.h"
#include "analysis/tile_waves.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace costscope {

class KernelPredictor;
using KernelPredictors = std::map<std::string, KernelPredictor>; // analysis/kernel_predictor.h

// One measured (or datasheet) sgemm rate at a shape; the Costscope model interpolates between them.
struct SgemmPoint {
    std::int64_t m = 0, k = 0, n = 0;
    double gflops = 0;
};

// One measured copy bandwidth (bytes read + written per ns) at the bytes one kernel moves.
struct BandwidthPoint {
    double bytes = 0;
    double gbps = 0;
};

// One measured kernel rate at the FLOPs of one node: small nodes run below the rate of large ones (a kernel under
// the backend's parallel grain runs on one thread).
struct KernelRatePoint {
    double flops = 0;
    double gflops = 0;
    bool operator==(const KernelRatePoint&) const = default;
};

// Times (ns) of four reference micro-graphs on the device, taken with its calibration and again before a run: how
// far the host has drifted since it was calibrated, by kind of work. A shared host's other tenants moved these on
// the development VM by 0.5x to 1.2x within minutes, and not alike (a libm kernel halved while the sgemm lost 12 %).
struct HostProbe {
    double gemmNs = 0;     // a 256^3 MatMul: compute-bound, all cores
    double kernelNs = 0;   // Erf over 2^14 elements: scalar libm code on one thread
    double memoryNs = 0;   // Add over 2^21 elements: streaming from DRAM
    double dispatchNs = 0; // a chain of 64 Adds of 16 elements: per-node overhead
    bool valid() const { return gemmNs > 0 && kernelNs > 0 && memoryNs > 0 && dispatchNs > 0; }
    bool operator==(const HostProbe&) const = default;
};

// What a cost model needs to know of one device (cost-model.md §3, §4), plus the Costscope model's extras.
// Units: ns, bytes/ns (= GB/s), GFLOP/s.
struct DeviceProfile {
    std::string name;        // "rlx-linux/cuda", "nvidia-h200"
    Device device = Device::Cpu;
    std::string description;
    std::string source;      // where the numbers come from (datasheet URL, calibration run, RLX defaults)
    // What fed the numbers (calibration_tag.h); the RLX 0.2.16 pick leaves Uncalibrated models out.
    Calibration calibration = Calibration::ArchDefault;

    double sgemmGflops = 200;            // flat rate (RLX's sgemm_gflops for most devices)
    double smallSgemmGflops = 0;         // RLX Mlx: rate for m·k·n under smallSgemmThreshold (0: unused)
    std::int64_t smallSgemmThreshold = 0;
    double dispatchNs = 300;
    double roundtripNs = 3000;
    double memoryBw = 30;
    double hostReadbackBw = 0;           // 0: same as memoryBw
    bool unifiedMemory = false;
    int numThreads = 1;
    // RLX's "discrete GPU" fallback: estimate = io_cost + (non Input/Param nodes) × 2000 (cost-model.md §4).
    bool rlxFallback = false;

    // Costscope model only.
    double peakGflops = 0;               // fp32 peak; 0: use sgemmGflops
    std::vector<SgemmPoint> sgemmTable;  // shape-dependent rates; empty: flat sgemmGflops
    DTypeRates dtypeRates;               // per-precision peaks and measured GEMM rates (analysis/dtype_rates.h)
    // A backend that runs Conv as im2col + GEMM (CUDA) first writes the column matrix of its implicit GEMM
    // (m·k floats, m = N·output spatial, k = Cin/groups·Πkernel); this is the rate, in column bytes per ns, that
    // adds to the GEMM's time. 0: Conv costs its GEMM alone.
    double im2colBw = 0;
    // A GPU backend's own tiled kernels timed in waves (calibrated Vulkan profiles): matmul.comp prices MatMul,
    // Gemm and FusedMatMulBiasAct, the implicit-GEMM conv.comp prices Conv (rows = output channels per group,
    // columns = batch·output positions), instead of the sgemm table and the im2col rate. Invalid: not used.
    TileWaves matmulWaves, convWaves;
    // A backend's attention kernel timed in waves of query rows (model/train/attention_waves_fit.h): rows =
    // batch·heads·query positions, k = key positions · head dim (the loop one row walks), one column. Fitted from
    // the kernel sampler's attention kernels where it explains them better than the GEMM rate (Vulkan's
    // attention.comp runs one invocation per row, latency-bound, 100-1000x under that rate). Invalid: not used.
    TileWaves attentionWaves;
    // What a calibration of the CPU backend measures of its own kernels; empty, false or 0 on other profiles, and
    // the Costscope model then prices with the generic roofline.
    // Copy bandwidth by bytes moved: a kernel whose tensors stay in the caches runs faster than one streaming
    // from DRAM (memoryBw).
    std::vector<BandwidthPoint> memoryBwTable;
    // FLOP rate of the backend's kernel for an op kind (OpInfo name, "Pool"), in place of peak × class efficiency:
    // kernels that are neither GEMMs nor bandwidth-bound (window loops, pow, libm calls) run far below peak.
    std::map<std::string, double> kernelGflops;
    // The same kernels measured at several sizes, by the same keys: where a key has points, they price it
    // (piecewise-linear in log FLOPs, clamped at the ends) instead of kernelGflops.
    std::map<std::string, std::vector<KernelRatePoint>> kernelGflopsBySize;
    // The reference times taken with the calibration (invalid on profiles that were not calibrated here).
    HostProbe hostProbe;
    // Conv runs as one im2col + GEMM per sample and group: N·groups GEMMs of (Cout/groups) × (output spatial) ×
    // (Cin/groups·Πkernel), and 1×1 stride-1 unpadded convolutions use the input as the column matrix.
    bool convPerSample = false;
    // Fixed cost of each of those calls (the im2col loop's fork and join over the thread pool, the GEMM's set-up):
    // what decides small layers at large batches. 0: none.
    double convCallNs = 0;
    // The sgemm packs op(B) into a panel copy before multiplying (the CPU backend's BLIS-style loops): a matmul's
    // memory term moves B's bytes twice more, read again and written, which decides skinny GEMMs (batch-1 fully
    // connected layers) that stream a large weight.
    bool gemmPacksB = false;
    // Views (Reshape, Flatten, Squeeze, Identity...) copy their tensor at this rate (bytes read + written per ns);
    // 0: views are free.
    double viewCopyBw = 0;
    std::map<std::string, double> corrections; // per op class (opClassName) multiplicative factors, fitted
    // Learned per-kernel-class predictors (analysis/kernel_predictor.h) by kernelClassOf; a class without one is
    // priced by the analytic terms above (and its correction). Shared: profiles are copied freely, trees are not.
    std::shared_ptr<const KernelPredictors> kernelPredictors;
    // How kernel times add up to the whole graph's (fitted with the predictors); invalid: Σ nodes + round trip.
    GraphComposition graphComposition;
    // Non-empty: a device predicted from another one's calibration by datasheet ratios (analysis/device_transfer.h):
    // the source profile and the ratios. Shown as "transferred" beside every prediction under this profile.
    std::string transferredFrom;
    // What loading the profile had to leave out (a malformed predictor: the analytic terms price its class).
    std::vector<std::string> loadWarnings;

    double readbackBw() const { return hostReadbackBw > 0 ? hostReadbackBw : memoryBw; }
    // RLX parity sgemm_gflops(m,k,n): the flat rate, or the small rate under the threshold (Mlx).
    double rlxSgemmGflops(std::int64_t m, std::int64_t k, std::int64_t n) const;
};

} // namespace costscope
