// SPDX-License-Identifier: MIT
#include "analysis/kernel_predictor.h"

#include "ir/fused_op.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace costscope {

namespace {

using Json = nlohmann::json;

float log2p1(double v)
{
    return static_cast<float>(std::log2(1.0 + std::max(v, 0.0)));
}

// FNV-1a of the sub-op name folded to 1..255: a stable category number across runs and machines.
float subOpBucket(const std::string& s)
{
    if (s.empty())
        return 0;
    std::uint32_t h = 2166136261u;
    for (unsigned char c : s)
        h = (h ^ c) * 16777619u;
    return static_cast<float>(1 + h % 255);
}

// A number XGBoost wrote as a string ("5E-1"), a number, or (XGBoost 2) a one-element array as a string "[5E-1]".
std::optional<double> jsonNumber(const Json& j)
{
    if (j.is_number())
        return j.get<double>();
    if (!j.is_string())
        return std::nullopt;
    std::string s = j.get<std::string>();
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '[' || c == ']'; }), s.end());
    try {
        return std::stod(s);
    } catch (...) {
        return std::nullopt;
    }
}

template <class T>
bool readArray(const Json& tree, const char* key, std::vector<T>& out)
{
    auto it = tree.find(key);
    if (it == tree.end() || !it->is_array())
        return false;
    out.clear();
    out.reserve(it->size());
    for (const Json& v : *it) {
        if (v.is_boolean())
            out.push_back(static_cast<T>(v.get<bool>()));
        else if (v.is_number())
            out.push_back(static_cast<T>(v.get<double>()));
        else
            return false;
    }
    return true;
}

} // namespace

std::string kernelClassOf(const Node& node, const OpWork& work)
{
    if (work.free || work.skipped)
        return {};
    const OpClass c = work.fused ? work.fused->opClass : node.op.info().opClass;
    if (c == OpClass::Leaf)
        return {};
    return std::string(opClassName(c));
}

KernelFeatures kernelFeatures(const Node& node, const OpWork& w, double analyticNs, double outputElements,
                              double reuseBytes)
{
    KernelFeatures f;
    f.fill(std::numeric_limits<float>::quiet_NaN());
    auto set = [&](KernelFeature k, float v) { f[static_cast<std::size_t>(k)] = v; };
    set(KernelFeature::OpKind, static_cast<float>(node.op.kind));
    set(KernelFeature::LogFlops, log2p1(w.flops));
    set(KernelFeature::LogBytes, log2p1(static_cast<double>(w.bytes)));
    set(KernelFeature::LogGemmM, log2p1(static_cast<double>(w.gemmM)));
    set(KernelFeature::LogGemmK, log2p1(static_cast<double>(w.gemmK)));
    set(KernelFeature::LogGemmN, log2p1(static_cast<double>(w.gemmN)));
    set(KernelFeature::LogGroups, static_cast<float>(std::log2(std::max<double>(1, node.op.attrs.intOr("groups", 1)))));
    if (outputElements > 0)
        set(KernelFeature::LogElements, log2p1(outputElements));
    if (node.shape.rank() > 0 && node.shape.dims.back().isStatic())
        set(KernelFeature::LogInnerDim, log2p1(static_cast<double>(node.shape.dims.back().value)));
    double area = 1, stride = 1;
    for (std::int64_t k : node.op.attrs.intsOr("kernel_size", {}))
        area *= static_cast<double>(std::max<std::int64_t>(k, 1));
    for (std::int64_t s : node.op.attrs.intsOr("stride", {}))
        stride = std::max(stride, static_cast<double>(s));
    set(KernelFeature::KernelArea, static_cast<float>(area));
    set(KernelFeature::Stride, static_cast<float>(stride));
    set(KernelFeature::DTypeBytes, static_cast<float>(byteSize(node.shape.dtype)));
    set(KernelFeature::LogIntensity,
        static_cast<float>(std::log2((w.flops + 1.0) / (static_cast<double>(w.bytes) + 1.0))));
    set(KernelFeature::LogAnalyticNs, log2p1(analyticNs));
    const std::string sub = node.op.subOp();
    set(KernelFeature::SubOp, subOpBucket(sub.empty() ? node.op.attrs.stringOr("activation", {}) : sub));
    const std::string mask = node.op.attrs.stringOr("mask_kind", "None");
    set(KernelFeature::Masked, node.op.kind == OpKind::Attention ? (mask == "None" || mask.empty() ? 0.f : 1.f) : NAN);
    if (reuseBytes >= 0)
        set(KernelFeature::LogReuseBytes, log2p1(std::max(reuseBytes, kWarmReuseBytes)));
    return f;
}

Result<KernelPredictor> KernelPredictor::fromXgboostJson(const std::string& text, const std::string& origin)
{
    auto fail = [&](const std::string& what) { return Diagnostic::error(origin + ": kernel predictor: " + what); };
    Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded())
        return fail("not JSON (expected an XGBoost JSON model)");
    const Json* learner = j.contains("learner") ? &j["learner"] : nullptr;
    if (!learner || !learner->is_object())
        return fail("no 'learner' object (expected an XGBoost JSON model)");
    KernelPredictor p;
    const Json& param = (*learner).value("learner_model_param", Json::object());
    const auto base = param.contains("base_score") ? jsonNumber(param["base_score"]) : std::optional<double>(0.0);
    if (!base)
        return fail("learner_model_param.base_score is not a number");
    p.m_base = static_cast<float>(*base);
    if (param.contains("num_feature"))
        if (const auto n = jsonNumber(param["num_feature"]); !n || *n > double(kKernelFeatureCount))
            return fail("the model reads " + (n ? std::to_string(static_cast<long long>(*n)) : std::string("?"))
                        + " features; this version computes " + std::to_string(kKernelFeatureCount));
    const std::string objective = (*learner).value("objective", Json::object()).value("name", std::string());
    if (!objective.empty() && objective != "reg:squarederror")
        return fail("objective '" + objective + "' (only reg:squarederror is evaluated)");
    const Json* trees = nullptr;
    if (auto gb = learner->find("gradient_booster"); gb != learner->end() && gb->is_object())
        if (auto m = gb->find("model"); m != gb->end() && m->is_object())
            if (auto t = m->find("trees"); t != m->end() && t->is_array())
                trees = &*t;
    if (!trees)
        return fail("no gradient_booster.model.trees array (only gbtree models are evaluated)");
    for (std::size_t ti = 0; ti < trees->size(); ++ti) {
        const Json& t = (*trees)[ti];
        Tree tree;
        if (!readArray(t, "left_children", tree.left) || !readArray(t, "right_children", tree.right)
            || !readArray(t, "split_indices", tree.feature) || !readArray(t, "split_conditions", tree.value)
            || !readArray(t, "default_left", tree.defaultLeft))
            return fail("tree " + std::to_string(ti) + " lacks one of its arrays");
        const std::size_t n = tree.left.size();
        if (n == 0 || tree.right.size() != n || tree.feature.size() != n || tree.value.size() != n
            || tree.defaultLeft.size() != n)
            return fail("tree " + std::to_string(ti) + " has arrays of different lengths");
        for (std::size_t i = 0; i < n; ++i) {
            const bool leaf = tree.left[i] < 0;
            // Children come after their parent in XGBoost's layout; anything else could loop.
            if (!leaf
                && (tree.left[i] <= std::int32_t(i) || tree.right[i] <= std::int32_t(i)
                    || tree.left[i] >= std::int32_t(n) || tree.right[i] >= std::int32_t(n) || tree.feature[i] < 0
                    || tree.feature[i] >= std::int32_t(kKernelFeatureCount)))
                return fail("tree " + std::to_string(ti) + " node " + std::to_string(i) + " is malformed");
        }
        p.m_trees.push_back(std::move(tree));
    }
    if (p.m_trees.empty())
        return fail("the model has no trees");
    p.m_json = j.dump();
    return p;
}

double KernelPredictor::margin(const KernelFeatures& f) const
{
    float sum = m_base;
    for (const Tree& t : m_trees) {
        std::int32_t i = 0;
        while (t.left[i] >= 0) {
            const float v = f[static_cast<std::size_t>(t.feature[i])];
            i = std::isnan(v) ? (t.defaultLeft[i] ? t.left[i] : t.right[i]) : (v < t.value[i] ? t.left[i] : t.right[i]);
        }
        sum += t.value[i];
    }
    return sum;
}

double KernelPredictor::predictNs(const KernelFeatures& f, double analyticNs, double floorNs) const
{
    const double ratio = std::clamp(std::exp(margin(f)), kMinRatio, kMaxRatio);
    return std::max(analyticNs * ratio, floorNs);
}

} // namespace costscope
