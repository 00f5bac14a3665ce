// SPDX-License-Identifier: MIT
#include "train/train_plugin.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <thread>

namespace costscope::xgb {

namespace {

// Owners of XGBoost's C handles.
struct DMatrixFree {
    void operator()(void* h) const { XGDMatrixFree(h); }
};
struct BoosterFree {
    void operator()(void* h) const { XGBoosterFree(h); }
};
using DMatrix = std::unique_ptr<void, DMatrixFree>;
using Booster = std::unique_ptr<void, BoosterFree>;

Diagnostic xgbError(const std::string& cls, const char* what)
{
    return Diagnostic::error("training the " + cls + " kernel predictor: " + what + ": " + XGBGetLastError());
}

// XGBoost's monotone_constraints: "(0,...,0,1,...)" with 1 (increasing) for the features the time may only grow with.
std::string monotoneConstraints()
{
    std::string out = "(";
    for (std::size_t i = 0; i < kKernelFeatureCount; ++i) {
        const bool increasing = i == static_cast<std::size_t>(KernelFeature::LogReuseBytes);
        out += std::string(i ? "," : "") + (increasing ? "1" : "0");
    }
    return out + ")";
}

Result<KernelPredictor> trainOne(const std::string& cls, const std::vector<const KernelSample*>& samples,
                                 const PredictorTrainOptions& o)
{
    std::vector<float> x, y, w;
    x.reserve(samples.size() * kKernelFeatureCount);
    for (const KernelSample* s : samples) {
        x.insert(x.end(), s->features.begin(), s->features.end());
        y.push_back(static_cast<float>(std::log(s->measuredNs / s->analyticNs)));
        w.push_back(static_cast<float>(s->weight));
    }
    DMatrixHandle dm = nullptr;
    if (XGDMatrixCreateFromMat(x.data(), samples.size(), kKernelFeatureCount, NAN, &dm) != 0)
        return xgbError(cls, "creating the data matrix");
    DMatrix data(dm);
    if (XGDMatrixSetFloatInfo(dm, "label", y.data(), y.size()) != 0
        || XGDMatrixSetFloatInfo(dm, "weight", w.data(), w.size()) != 0)
        return xgbError(cls, "setting labels");
    BoosterHandle bh = nullptr;
    if (XGBoosterCreate(&dm, 1, &bh) != 0)
        return xgbError(cls, "creating the booster");
    Booster booster(bh);
    const std::map<std::string, std::string> params = {
        {"objective", "reg:squarederror"},
        {"booster", "gbtree"},
        {"tree_method", "exact"},
        {"max_depth", std::to_string(o.maxDepth)},
        {"eta", std::to_string(o.eta)},
        {"min_child_weight", std::to_string(o.minChildWeight)},
        {"lambda", "1"},
        {"base_score", "0"},
        {"seed", std::to_string(o.seed)},
        // XGBoost's default is every core: on a 64-core GPU host that gains nothing for a few thousand samples, and
        // with one calibration per GPU at once its OpenMP threads oversubscribe the host and spin (4
        // calibrations at once on a 4-GPU host did not end in 400 s, where one alone takes under 3 min). A few threads
        // train these small sets as fast.
        {"nthread",
         std::to_string(o.threads > 0 ? o.threads : std::clamp<int>(int(std::thread::hardware_concurrency()), 1, 8))},
        {"verbosity", "0"},
        // Colder inputs never make a kernel faster: the time may only grow with the reuse distance. Without the
        // constraint the trees used the distance as a stand-in for "which graph is this" and split convolutions
        // on it both ways (held-out MobileNet fell from 90 % to 60 % within ±10 %).
        {"monotone_constraints", monotoneConstraints()},
    };
    for (const auto& [k, v] : params)
        if (XGBoosterSetParam(bh, k.c_str(), v.c_str()) != 0)
            return xgbError(cls, ("setting " + k).c_str());
    for (int i = 0; i < o.rounds; ++i)
        if (XGBoosterUpdateOneIter(bh, i, dm) != 0)
            return xgbError(cls, "boosting");
    bst_ulong len = 0;
    const char* buf = nullptr;
    if (XGBoosterSaveModelToBuffer(bh, R"({"format": "json"})", &len, &buf) != 0)
        return xgbError(cls, "saving the model");
    auto p = KernelPredictor::fromXgboostJson(std::string(buf, len), cls);
    if (!p)
        return p.error();
    double ape = 0;
    for (const KernelSample* s : samples)
        ape += std::fabs(p->predictNs(s->features, s->analyticNs, 0) / s->measuredNs - 1);
    p->samples = static_cast<int>(samples.size());
    p->trainMape = 100 * ape / double(samples.size());
    return p;
}

} // namespace

Result<std::vector<double>> xgboostMargins(const KernelPredictor& predictor, const std::vector<KernelFeatures>& rows)
{
    BoosterHandle bh = nullptr;
    if (XGBoosterCreate(nullptr, 0, &bh) != 0)
        return xgbError("reference", "creating the booster");
    Booster booster(bh);
    const std::string& json = predictor.xgboostJson();
    if (XGBoosterLoadModelFromBuffer(bh, json.data(), json.size()) != 0)
        return xgbError("reference", "loading the model");
    std::vector<float> x;
    for (const KernelFeatures& f : rows)
        x.insert(x.end(), f.begin(), f.end());
    DMatrixHandle dm = nullptr;
    if (XGDMatrixCreateFromMat(x.data(), rows.size(), kKernelFeatureCount, NAN, &dm) != 0)
        return xgbError("reference", "creating the data matrix");
    DMatrix data(dm);
    bst_ulong len = 0;
    const float* out = nullptr;
    if (XGBoosterPredict(bh, dm, 1 /* output margin */, 0, 0, &len, &out) != 0)
        return xgbError("reference", "predicting");
    return std::vector<double>(out, out + len);
}

Result<PredictorTraining> trainKernelPredictors(const std::vector<KernelSample>& samples,
                                                const PredictorTrainOptions& options)
{
    std::map<std::string, std::vector<const KernelSample*>> byClass;
    for (const KernelSample& s : samples)
        if (s.analyticNs > 0 && s.measuredNs > 0 && std::isfinite(s.analyticNs) && std::isfinite(s.measuredNs))
            byClass[s.kernelClass].push_back(&s);
    PredictorTraining out;
    for (const auto& [cls, set] : byClass) {
        if (static_cast<int>(set.size()) < options.minSamples) {
            out.skipped.push_back(cls + " (" + std::to_string(set.size()) + " samples)");
            continue;
        }
        auto p = trainOne(cls, set, options);
        if (!p)
            return p.error();
        out.predictors.emplace(cls, std::move(*p));
    }
    return out;
}

} // namespace costscope::xgb
