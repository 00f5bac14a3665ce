// SPDX-License-Identifier: MIT
#pragma once
// Learned per-kernel-class predictors of the Costscope model (issue 20): gradient-boosted trees trained with
// XGBoost (model/train) on kernels timed through a backend, stored in the device profile as XGBoost's own JSON
// model, and evaluated here.
//
// What a predictor learns is the log of measured / analytic time of one node: the analytic model (roofline with the
// calibrated rates) stays the physical backbone, and the trees learn what it misses for a kernel class (tile
// quantisation, cache effects, launch shapes). Far outside its training data a tree ensemble returns the value of
// its outermost leaves, a constant ratio, so a prediction still scales as the roofline does; the ratio is clamped
// too (kMinRatio..kMaxRatio) and the result never goes under the roofline's lower bound.
#include "analysis/op_cost.h"
#include "ir/diagnostic.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace costscope {

// Inputs of a predictor, all derived from the node and its OpWork so that the model can compute them without a
// run. Unknown values are NaN (XGBoost's "missing").
enum class KernelFeature : std::uint8_t {
    OpKind,   // OpKind as a number (trees split on it like a category)
    LogFlops, // log2(1 + FLOPs)
    LogBytes, // log2(1 + bytes read and written)
    LogGemmM, // log2(1 + GEMM m), 0 for non-GEMM ops (likewise k, n)
    LogGemmK,
    LogGemmN,
    LogGroups,     // log2(conv groups)
    LogElements,   // log2(1 + output elements)
    LogInnerDim,   // log2(1 + output's last dimension)
    KernelArea,    // Π kernel_size (Conv, Pool), 1 otherwise
    Stride,        // largest stride (Conv, Pool), 1 otherwise
    DTypeBytes,    // bytes of the output's element type
    LogIntensity,  // log2 FLOPs per byte
    LogAnalyticNs, // log2 of the analytic prediction (ns)
    SubOp,         // a hash bucket of the element-wise sub-op ("Add", "Gelu") or a GEMM's activation, 0 when none
    Masked, // Attention: 1 with a causal (or sliding-window) mask, whose skipped half the analytic FLOPs leave out
    LogReuseBytes, // log2(1 + the inputs' reuse distance in bytes, analysis/reuse_distance.h), never under
                   // kWarmReuseBytes: warm or cold caches
    Count,
};
// The warmest reuse distance the predictors tell apart: the kernel sampler's warm graphs touch up to this much a pass
// (zoo/kernel_sampler.cpp), so no sampled kernel was timed warmer. A node whose inputs were touched fewer bytes ago
// (a ShuffleNet layer after its 28 KB channel shuffle, an attention 1 MB after its projection) is in the cache as the
// sampler's warm kernels are, and gets their distance: below it, the distance only told the trees which family a
// kernel came from, and with the time monotone in the distance they priced such kernels from the other families'
// fastest (held-out ShuffleNet's grouped 1x1 layers at 0.8x, GPT's attention at 0.7x on the H200).
constexpr double kWarmReuseBytes = 24.0 * (1 << 20);
constexpr std::size_t kKernelFeatureCount = static_cast<std::size_t>(KernelFeature::Count);
using KernelFeatures = std::array<float, kKernelFeatureCount>;

// The predictor class a node belongs to: the op class (opClassName) of what the backend launches for it, the
// class of the fused kernel for a fused node. Views and leaves have none ("").
std::string kernelClassOf(const Node& node, const OpWork& work);

// The features of one node; `analyticNs` is the analytic model's time for it, `outputElements` its output's
// element count (0: unknown), `reuseBytes` its inputs' reuse distance (negative: unknown).
KernelFeatures kernelFeatures(const Node& node, const OpWork& work, double analyticNs, double outputElements,
                              double reuseBytes);

// A regression tree ensemble as XGBoost writes it ("reg:squarederror", gbtree): margin = base_score + Σ leaf.
// Evaluated here, not through libxgboost: the model library is linked into the GUI, the CLI and each backend
// plugin, and the cost model prices nodes one at a time inside sweeps, where XGBoost's C API costs a DMatrix per
// call; a tree walk is a few comparisons. tests/model/test_kernel_predictor checks both agree.
class KernelPredictor {
public:
    static constexpr double kMinRatio = 1.0 / 16, kMaxRatio = 64;

    // From XGBoost's JSON model (XGBoosterSaveModelToBuffer with format json); `origin` prefixes errors.
    static Result<KernelPredictor> fromXgboostJson(const std::string& text, const std::string& origin);
    const std::string& xgboostJson() const { return m_json; }

    bool valid() const { return !m_trees.empty(); }
    double margin(const KernelFeatures& f) const; // the learned log ratio
    // analyticNs × the learned ratio (clamped), never under `floorNs` (the roofline's bound).
    double predictNs(const KernelFeatures& f, double analyticNs, double floorNs) const;

    int samples = 0;      // training samples (kept in the profile for the reader)
    double trainMape = 0; // on its own samples, percent

private:
    struct Tree {
        std::vector<std::int32_t> left, right, feature;
        std::vector<float> value; // split condition, or the leaf value where left < 0
        std::vector<std::uint8_t> defaultLeft;
    };
    std::vector<Tree> m_trees;
    float m_base = 0;
    std::string m_json;
};

using KernelPredictors = std::map<std::string, KernelPredictor>; // by kernelClassOf

// One timed kernel for training: its class, features, the analytic time and the measured time (instrumentation
// overhead removed), and a weight.
struct KernelSample {
    std::string kernelClass;
    KernelFeatures features{};
    double analyticNs = 0;
    double measuredNs = 0;
    double weight = 1;
    std::string family; // where it came from (zoo family, "calibration"): leave-one-family-out filters on it
};

} // namespace costscope
