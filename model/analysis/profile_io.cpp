// SPDX-License-Identifier: MIT
#include "analysis/profile_io.h"
#include "analysis/dtype_rates_io.h"
#include "analysis/kernel_predictor.h"

#include "formats/graph_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace costscope {

namespace {

using Json = nlohmann::ordered_json;

Diagnostic keyError(const std::string& origin, const std::string& key, const std::string& what)
{
    return Diagnostic::error(origin + ": key '" + key + "': " + what);
}

// Reads optional typed keys, remembering the first problem so callers can return it.
class Reader {
public:
    Reader(const Json& j, const std::string& origin) : m_j(j), m_origin(origin) {}

    void number(const char* key, double& out)
    {
        if (const Json* v = get(key)) {
            if (!v->is_number())
                return fail(key, "expected a number");
            out = v->get<double>();
            if (out < 0)
                fail(key, "must not be negative");
        }
    }
    void integer(const char* key, std::int64_t& out)
    {
        if (const Json* v = get(key)) {
            if (!v->is_number_integer())
                return fail(key, "expected an integer");
            out = v->get<std::int64_t>();
        }
    }
    void boolean(const char* key, bool& out)
    {
        if (const Json* v = get(key)) {
            if (!v->is_boolean())
                return fail(key, "expected true or false");
            out = v->get<bool>();
        }
    }
    void text(const char* key, std::string& out)
    {
        if (const Json* v = get(key)) {
            if (!v->is_string())
                return fail(key, "expected a string");
            out = v->get<std::string>();
        }
    }
    const Json* get(const char* key) const
    {
        auto it = m_j.find(key);
        return it == m_j.end() ? nullptr : &*it;
    }
    void fail(const std::string& key, const std::string& what)
    {
        if (!m_error)
            m_error = keyError(m_origin, key, what);
    }
    const std::optional<Diagnostic>& error() const { return m_error; }

private:
    const Json& m_j;
    const std::string& m_origin;
    std::optional<Diagnostic> m_error;
};

void readTable(Reader& r, DeviceProfile& p)
{
    const Json* t = r.get("sgemm_table");
    if (!t)
        return;
    if (!t->is_array())
        return r.fail("sgemm_table", "expected an array of {m,k,n,gflops}");
    for (std::size_t i = 0; i < t->size(); ++i) {
        const Json& e = (*t)[i];
        const std::string where = "sgemm_table[" + std::to_string(i) + "]";
        if (!e.is_object())
            return r.fail(where, "expected an object {m,k,n,gflops}");
        SgemmPoint s;
        for (auto [key, dst] : {std::pair{"m", &s.m}, std::pair{"k", &s.k}, std::pair{"n", &s.n}}) {
            auto it = e.find(key);
            if (it == e.end() || !it->is_number_integer() || it->get<std::int64_t>() <= 0)
                return r.fail(where + "." + key, "expected a positive integer");
            *dst = it->get<std::int64_t>();
        }
        auto g = e.find("gflops");
        if (g == e.end() || !g->is_number() || g->get<double>() <= 0)
            return r.fail(where + ".gflops", "expected a positive number");
        s.gflops = g->get<double>();
        p.sgemmTable.push_back(s);
    }
}

void readBandwidthTable(Reader& r, DeviceProfile& p)
{
    const Json* t = r.get("memory_bw_table");
    if (!t)
        return;
    if (!t->is_array())
        return r.fail("memory_bw_table", "expected an array of {bytes,gbps}");
    for (std::size_t i = 0; i < t->size(); ++i) {
        const Json& e = (*t)[i];
        const std::string where = "memory_bw_table[" + std::to_string(i) + "]";
        auto bytes = e.is_object() ? e.find("bytes") : e.end();
        auto gbps = e.is_object() ? e.find("gbps") : e.end();
        if (bytes == e.end() || gbps == e.end() || !bytes->is_number() || !gbps->is_number()
            || bytes->get<double>() <= 0 || gbps->get<double>() <= 0)
            return r.fail(where, "expected an object {bytes, gbps} of positive numbers");
        p.memoryBwTable.push_back({bytes->get<double>(), gbps->get<double>()});
    }
}

// "kernel_gflops_by_size": {"Activation.Gelu": [{"flops": .., "gflops": ..}, ..]}.
void readKernelRateTables(Reader& r, DeviceProfile& p)
{
    const char* key = "kernel_gflops_by_size";
    const Json* m = r.get(key);
    if (!m)
        return;
    if (!m->is_object())
        return r.fail(key, "expected an object {op kind: [{flops, gflops}]}");
    for (auto it = m->begin(); it != m->end(); ++it) {
        const std::string where = std::string(key) + "." + it.key();
        if (!it.value().is_array() || it.value().empty())
            return r.fail(where, "expected a non-empty array of {flops, gflops}");
        std::vector<KernelRatePoint>& points = p.kernelGflopsBySize[it.key()];
        for (std::size_t i = 0; i < it.value().size(); ++i) {
            const Json& e = it.value()[i];
            auto flops = e.is_object() ? e.find("flops") : e.end();
            auto gflops = e.is_object() ? e.find("gflops") : e.end();
            if (flops == e.end() || gflops == e.end() || !flops->is_number() || !gflops->is_number()
                || flops->get<double>() <= 0 || gflops->get<double>() <= 0)
                return r.fail(where + "[" + std::to_string(i) + "]", "expected an object {flops, gflops} of positive numbers");
            points.push_back({flops->get<double>(), gflops->get<double>()});
        }
    }
}

// "host_probe": {"gemm_ns", "kernel_ns", "memory_ns", "dispatch_ns"}, all positive.
void readHostProbe(Reader& r, DeviceProfile& p)
{
    const Json* o = r.get("host_probe");
    if (!o)
        return;
    const char* expected = "expected an object {gemm_ns, kernel_ns, memory_ns, dispatch_ns} of positive numbers";
    if (!o->is_object())
        return r.fail("host_probe", expected);
    for (auto [name, dst] : {std::pair{"gemm_ns", &p.hostProbe.gemmNs}, std::pair{"kernel_ns", &p.hostProbe.kernelNs},
                             std::pair{"memory_ns", &p.hostProbe.memoryNs},
                             std::pair{"dispatch_ns", &p.hostProbe.dispatchNs}}) {
        const auto it = o->find(name);
        if (it == o->end() || !it->is_number() || it->get<double>() <= 0)
            return r.fail(std::string("host_probe.") + name, expected);
        *dst = it->get<double>();
    }
}

// An object of positive numbers by name (kernel_gflops, corrections) into `out`.
void readPositiveMap(Reader& r, const char* key, const char* expected, std::map<std::string, double>& out)
{
    const Json* m = r.get(key);
    if (!m)
        return;
    if (!m->is_object())
        return r.fail(key, expected);
    for (auto it = m->begin(); it != m->end(); ++it) {
        if (!it.value().is_number() || it.value().get<double>() <= 0)
            return r.fail(std::string(key) + "." + it.key(), "expected a positive number");
        out[it.key()] = it.value().get<double>();
    }
}

void readWaves(Reader& r, const std::string& key, TileWaves& w)
{
    const Json* o = r.get(key.c_str());
    if (!o || r.error())
        return;
    if (!o->is_object())
        return r.fail(key, "expected an object {tile_m, tile_n, tile_k, concurrent_tiles, step_ns, fixed_ns}");
    const auto field = [&](const char* name, auto& v) {
        const auto it = o->find(name);
        if (it == o->end() || !it->is_number() || it->template get<double>() < 0)
            return r.fail(key + "." + name, "expected a non-negative number");
        v = it->template get<std::remove_reference_t<decltype(v)>>();
    };
    field("tile_m", w.tileM);
    field("tile_n", w.tileN);
    field("tile_k", w.tileK);
    field("concurrent_tiles", w.concurrentTiles);
    field("step_ns", w.stepNs);
    field("fixed_ns", w.fixedNs);
    if (!r.error() && !w.valid())
        r.fail(key, "tiles, concurrent_tiles and step_ns must be positive");
}

// "kernel_predictors": {class: {"samples": n, "train_mape": %, "xgboost": XGBoost JSON model}}. A predictor that
// cannot be read is left out with a warning (DeviceProfile::loadWarnings): its class falls back to the analytic
// terms, and the rest of the profile stays usable.
void readKernelPredictors(const Json& j, const std::string& origin, DeviceProfile& p)
{
    auto it = j.find("kernel_predictors");
    if (it == j.end())
        return;
    const std::string where = origin + ": key 'kernel_predictors'";
    if (!it->is_object()) {
        p.loadWarnings.push_back(where
                                 + ": expected an object {kernel class: predictor}; the analytic terms price "
                                   "every kernel");
        return;
    }
    auto predictors = std::make_shared<KernelPredictors>();
    for (auto e = it->begin(); e != it->end(); ++e) {
        const std::string at = origin + ": key 'kernel_predictors." + e.key() + "'";
        const Json* model = e->is_object() && e->contains("xgboost") ? &(*e)["xgboost"] : nullptr;
        auto k = model ? KernelPredictor::fromXgboostJson(model->dump(), at)
                       : Result<KernelPredictor>(Diagnostic::error(at + ": no 'xgboost' model"));
        if (!k) {
            p.loadWarnings.push_back(k.error().message + "; the analytic terms price this class");
            continue;
        }
        k->samples = e->value("samples", 0);
        k->trainMape = e->value("train_mape", 0.0);
        predictors->emplace(e.key(), std::move(*k));
    }
    if (!predictors->empty())
        p.kernelPredictors = std::move(predictors);
}

const std::set<std::string>& knownKeys()
{
    static const std::set<std::string> k = {"name",
                                            "device",
                                            "description",
                                            "source",
                                            "calibration",
                                            "sgemm_gflops",
                                            "small_sgemm_gflops",
                                            "small_sgemm_threshold",
                                            "dispatch_ns",
                                            "roundtrip_ns",
                                            "memory_bw_gbps",
                                            "host_readback_bw_gbps",
                                            "unified_memory",
                                            "num_threads",
                                            "peak_gflops",
                                            "sgemm_table",
                                            "dtype_peaks",
                                            "dtype_gemm_tables",
                                            "im2col_bw_gbps",
                                            "matmul_waves",
                                            "conv_waves",
                                            "attention_waves",
                                            "memory_bw_table",
                                            "kernel_gflops",
                                            "kernel_gflops_by_size",
                                            "host_probe",
                                            "conv_per_sample",
                                            "conv_call_ns",
                                            "gemm_packs_b",
                                            "view_copy_bw_gbps",
                                            "corrections",
                                            "kernel_predictors",
                                            "graph_composition",
                                            "transferred_from",
                                            "rlx_fallback"};
    return k;
}

} // namespace

std::string profileToJsonText(const DeviceProfile& p)
{
    Json j;
    j["name"] = p.name;
    j["device"] = std::string(deviceName(p.device));
    j["description"] = p.description;
    j["source"] = p.source;
    j["calibration"] = std::string(calibrationName(p.calibration));
    j["sgemm_gflops"] = p.sgemmGflops;
    j["small_sgemm_gflops"] = p.smallSgemmGflops;
    j["small_sgemm_threshold"] = p.smallSgemmThreshold;
    j["dispatch_ns"] = p.dispatchNs;
    j["roundtrip_ns"] = p.roundtripNs;
    j["memory_bw_gbps"] = p.memoryBw;
    j["host_readback_bw_gbps"] = p.hostReadbackBw;
    j["unified_memory"] = p.unifiedMemory;
    j["num_threads"] = p.numThreads;
    j["peak_gflops"] = p.peakGflops;
    Json table = Json::array();
    for (const SgemmPoint& s : p.sgemmTable)
        table.push_back({{"m", s.m}, {"k", s.k}, {"n", s.n}, {"gflops", s.gflops}});
    j["sgemm_table"] = table;
    writeDTypeRates(p.dtypeRates, j);
    if (p.im2colBw > 0)
        j["im2col_bw_gbps"] = p.im2colBw;
    for (const auto& [key, w] : {std::pair{"matmul_waves", &p.matmulWaves}, std::pair{"conv_waves", &p.convWaves},
                                 std::pair{"attention_waves", &p.attentionWaves}})
        if (w->valid())
            j[key] = {{"tile_m", w->tileM}, {"tile_n", w->tileN}, {"tile_k", w->tileK}, {"concurrent_tiles", w->concurrentTiles},
                      {"step_ns", w->stepNs}, {"fixed_ns", w->fixedNs}};
    if (!p.memoryBwTable.empty()) {
        Json bw = Json::array();
        for (const BandwidthPoint& b : p.memoryBwTable)
            bw.push_back({{"bytes", b.bytes}, {"gbps", b.gbps}});
        j["memory_bw_table"] = bw;
    }
    if (!p.kernelGflops.empty()) {
        j["kernel_gflops"] = Json::object();
        for (const auto& [kind, gflops] : p.kernelGflops)
            j["kernel_gflops"][kind] = gflops;
    }
    if (!p.kernelGflopsBySize.empty()) {
        j["kernel_gflops_by_size"] = Json::object();
        for (const auto& [kind, points] : p.kernelGflopsBySize) {
            Json a = Json::array();
            for (const KernelRatePoint& k : points)
                a.push_back({{"flops", k.flops}, {"gflops", k.gflops}});
            j["kernel_gflops_by_size"][kind] = a;
        }
    }
    if (p.hostProbe.valid())
        j["host_probe"] = {{"gemm_ns", p.hostProbe.gemmNs}, {"kernel_ns", p.hostProbe.kernelNs},
                           {"memory_ns", p.hostProbe.memoryNs}, {"dispatch_ns", p.hostProbe.dispatchNs}};
    if (p.convPerSample)
        j["conv_per_sample"] = true;
    if (p.convCallNs > 0)
        j["conv_call_ns"] = p.convCallNs;
    if (p.gemmPacksB)
        j["gemm_packs_b"] = true;
    if (p.viewCopyBw > 0)
        j["view_copy_bw_gbps"] = p.viewCopyBw;
    j["corrections"] = Json::object();
    for (const auto& [cls, f] : p.corrections)
        j["corrections"][cls] = f;
    if (p.kernelPredictors && !p.kernelPredictors->empty()) {
        j["kernel_predictors"] = Json::object();
        for (const auto& [cls, k] : *p.kernelPredictors)
            j["kernel_predictors"][cls] = {
                {"samples", k.samples}, {"train_mape", k.trainMape}, {"xgboost", Json::parse(k.xgboostJson())}};
    }
    if (p.graphComposition.valid())
        j["graph_composition"] = {{"kernel_scale", p.graphComposition.kernelScale},
                                  {"per_kernel_ns", p.graphComposition.perKernelNs},
                                  {"fixed_ns", p.graphComposition.fixedNs}};
    if (!p.transferredFrom.empty())
        j["transferred_from"] = p.transferredFrom;
    j["rlx_fallback"] = p.rlxFallback;
    return j.dump(2) + "\n";
}

Result<DeviceProfile> profileFromJsonText(const std::string& text, const std::string& origin)
{
    Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded())
        return Diagnostic::error(origin + ": not valid JSON");
    if (!j.is_object())
        return Diagnostic::error(origin + ": expected a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!knownKeys().count(it.key()))
            return keyError(origin, it.key(), "unknown key");
    Reader r(j, origin);
    DeviceProfile p;
    if (!r.get("name"))
        return keyError(origin, "name", "missing");
    r.text("name", p.name);
    if (!r.error() && p.name.empty())
        r.fail("name", "must not be empty");
    std::string device;
    if (!r.get("device"))
        return keyError(origin, "device", "missing");
    r.text("device", device);
    if (!r.error()) {
        if (auto d = parseDevice(device))
            p.device = *d;
        else
            r.fail("device", "unknown device '" + device + "'");
    }
    r.text("description", p.description);
    r.text("source", p.source);
    r.number("sgemm_gflops", p.sgemmGflops);
    r.number("small_sgemm_gflops", p.smallSgemmGflops);
    r.integer("small_sgemm_threshold", p.smallSgemmThreshold);
    r.number("dispatch_ns", p.dispatchNs);
    r.number("roundtrip_ns", p.roundtripNs);
    r.number("memory_bw_gbps", p.memoryBw);
    r.number("host_readback_bw_gbps", p.hostReadbackBw);
    r.boolean("unified_memory", p.unifiedMemory);
    std::int64_t threads = p.numThreads;
    r.integer("num_threads", threads);
    p.numThreads = static_cast<int>(std::clamp<std::int64_t>(threads, 1, 4096));
    r.number("peak_gflops", p.peakGflops);
    readTable(r, p);
    if (auto problem = readDTypeRates(j, p.dtypeRates))
        r.fail(problem->first, problem->second);
    r.number("im2col_bw_gbps", p.im2colBw);
    readWaves(r, "matmul_waves", p.matmulWaves);
    readWaves(r, "conv_waves", p.convWaves);
    readWaves(r, "attention_waves", p.attentionWaves);
    readBandwidthTable(r, p);
    readPositiveMap(r, "kernel_gflops", "expected an object {op kind: GFLOP/s}", p.kernelGflops);
    readKernelRateTables(r, p);
    readHostProbe(r, p);
    r.boolean("conv_per_sample", p.convPerSample);
    r.number("conv_call_ns", p.convCallNs);
    r.boolean("gemm_packs_b", p.gemmPacksB);
    r.number("view_copy_bw_gbps", p.viewCopyBw);
    readPositiveMap(r, "corrections", "expected an object {op class: factor}", p.corrections);
    readKernelPredictors(j, origin, p);
    if (const auto c = j.find("graph_composition"); c != j.end()) {
        const auto number = [&](const char* key) {
            return c->is_object() && c->contains(key) && (*c)[key].is_number() ? (*c)[key].get<double>() : NAN;
        };
        const GraphComposition g{number("kernel_scale"), number("per_kernel_ns"), number("fixed_ns")};
        if (std::isfinite(g.kernelScale) && std::isfinite(g.perKernelNs) && std::isfinite(g.fixedNs) && g.valid())
            p.graphComposition = g;
        else
            p.loadWarnings.push_back(origin
                                     + ": key 'graph_composition': expected {kernel_scale > 0, per_kernel_ns, "
                                       "fixed_ns}; the nodes' sum prices the whole graph");
    }
    r.text("transferred_from", p.transferredFrom);
    r.boolean("rlx_fallback", p.rlxFallback);
    // Files from before the tag: RLX's discrete-GPU fallback is a guess without a model, anything else a default.
    p.calibration = p.rlxFallback ? Calibration::Uncalibrated : Calibration::ArchDefault;
    std::string calibration;
    r.text("calibration", calibration);
    if (!r.error() && r.get("calibration")) {
        if (auto c = parseCalibration(calibration))
            p.calibration = *c;
        else
            r.fail("calibration",
                   "unknown calibration '" + calibration + "': expected Measured, ArchDefault or Uncalibrated");
    }
    if (r.error())
        return *r.error();
    return p;
}

Result<DeviceProfile> loadProfileFile(const std::string& path)
{
    auto bytes = readFileBytes(path);
    if (!bytes)
        return Diagnostic::error(path + ": " + bytes.error().message);
    return profileFromJsonText(*bytes, path);
}

} // namespace costscope
