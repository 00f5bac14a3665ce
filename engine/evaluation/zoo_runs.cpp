// SPDX-License-Identifier: MIT
#include "evaluation/zoo_runs.h"

#include "analysis/costscope_cost_model.h"
#include "analysis/host_speed.h"
#include "calibration/host_probe.h"
#include "calibration/measure_for_fit.h"
#include "formats/graph_file.h"
#include "ir/rebatch.h"
#include "zoo/kernel_sampler.h"
#include "zoo/model_zoo.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

namespace costscope {

namespace {
namespace fs = std::filesystem;

double graphGflop(const Graph& g)
{
    double flops = 0;
    for (const OpWork& w : CostscopeCostModel().work(g, {}).nodes)
        flops += w.flops;
    return flops / 1e9;
}
} // namespace

std::vector<PlannedGraph> zooPlan(const std::set<std::string>& families, const std::vector<std::int64_t>& batches)
{
    std::vector<PlannedGraph> out;
    for (const ZooGraph& z : modelZoo())
        if (families.empty() || families.count(z.family))
            for (std::int64_t b : batches)
                out.push_back({z.family, z.name, b, std::make_shared<const Graph>(z.build(b))});
    return out;
}

std::vector<PlannedGraph> samplerPlan(double maxGflop)
{
    // The classes in rotation (a matmul graph, an attention graph, ...), each class's graphs in the sampler's
    // order: a calibration whose budget runs out early (a quick one on a busy machine) still samples every class.
    std::vector<std::string> classes;
    std::map<std::string, std::vector<PlannedGraph>> byClass;
    for (SamplerGraph& s : kernelSamplerGraphs(maxGflop)) {
        if (!byClass.contains(s.kernelClass))
            classes.push_back(s.kernelClass);
        const std::string name = s.graph.name;
        byClass[s.kernelClass].push_back({kSamplerFamily, name, 0, std::make_shared<const Graph>(std::move(s.graph))});
    }
    std::vector<PlannedGraph> out;
    for (std::size_t round = 0;; ++round) {
        const std::size_t before = out.size();
        for (const std::string& c : classes)
            if (round < byClass[c].size())
                out.push_back(std::move(byClass[c][round]));
        if (out.size() == before)
            return out;
    }
}

Result<std::vector<PlannedGraph>> filePlan(const std::vector<std::string>& data,
                                           const std::vector<std::int64_t>& batches)
{
    std::vector<std::pair<fs::path, std::string>> files;
    for (const std::string& d : data) {
        std::error_code ec;
        if (fs::is_directory(d, ec)) {
            std::vector<fs::path> inside;
            for (const auto& e : fs::directory_iterator(d, ec)) {
                const std::string n = e.path().filename().string();
                if (n.ends_with(".onnx") || n.ends_with(".hir.json") || n.ends_with(".costscope"))
                    inside.push_back(e.path());
            }
            std::sort(inside.begin(), inside.end());
            const fs::path dir = fs::path(d).filename().empty() ? fs::path(d).parent_path() : fs::path(d);
            for (const fs::path& p : inside)
                files.emplace_back(p, dir.filename().string());
        } else if (fs::is_regular_file(d, ec)) {
            files.emplace_back(d, fs::path(d).stem().string());
        } else {
            return Diagnostic::error(d + ": no such file or folder");
        }
    }
    std::vector<PlannedGraph> out;
    for (const auto& [path, family] : files) {
        auto loaded = loadGraphFile(path.string());
        if (!loaded)
            return Diagnostic::error(path.string() + ": " + loaded.error().message);
        bool any = false;
        for (std::int64_t b : batches)
            if (auto g = rebatch(loaded->graph, b)) {
                out.push_back({family, path.filename().string(), b, std::make_shared<const Graph>(std::move(*g))});
                any = true;
            }
        // A graph that cannot be rebatched counts once, as its file states it.
        if (!any)
            out.push_back({family, path.filename().string(), 0, std::make_shared<const Graph>(loaded->graph)});
    }
    return out;
}

std::vector<EvalRun> measurePlan(Backend& backend, const std::vector<PlannedGraph>& plan, const DeviceProfile& profile,
                                 const PlanMeasureOptions& o, std::vector<std::string>& skipped)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const bool probing = profile.hostProbe.valid();
    std::vector<EvalRun> runs;
    std::size_t samplerLeft = 0; // sampler graphs passed over for samplerS
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const PlannedGraph& p = plan[i];
        const std::string what = p.family + " " + p.name + " b" + std::to_string(p.batch);
        if (o.onProgress && i > 0)
            o.onProgress(i, plan.size());
        if (o.cancel && o.cancel->load()) {
            skipped.push_back(std::to_string(plan.size() - i) + " graphs from " + what + " on: cancelled");
            break;
        }
        if (std::chrono::duration<double>(Clock::now() - start).count() > o.totalS) {
            skipped.push_back(std::to_string(plan.size() - i) + " graphs from " + what + " on: over the time budget");
            break;
        }
        if (p.family == kSamplerFamily && std::chrono::duration<double>(Clock::now() - start).count() > o.samplerS) {
            ++samplerLeft;
            continue;
        }
        if (const double gflop = graphGflop(*p.graph); gflop > o.maxGflop) {
            char text[64];
            std::snprintf(text, sizeof text, ": %.1f GFLOP, over the limit of %.1f", gflop, o.maxGflop);
            skipped.push_back(what + text);
            continue;
        }
        auto before = probing ? probeHost(backend, o.device) : Result<HostProbe>(HostProbe{});
        FitMeasureOptions mo;
        mo.device = o.device;
        mo.budgetS = o.perGraphS;
        auto m = measureForFit(backend, p.graph, mo);
        if (!m) {
            skipped.push_back(what + ": does not run: " + m.error().message);
            continue;
        }
        if (probing)
            if (auto after = probeHost(backend, o.device); after && before)
                m->host = hostSpeed(profile.hostProbe, meanProbe(*before, *after));
        if (o.progress)
            std::fprintf(stderr, "[%zu/%zu] %-48s %10.3f ms\n", i + 1, plan.size(), what.c_str(), m->wholeNs / 1e6);
        runs.push_back({p.family, p.name, p.batch, std::move(*m)});
    }
    if (samplerLeft)
        skipped.push_back(std::to_string(samplerLeft) + " sampler graphs: over the sampler's time budget");
    if (o.onProgress)
        o.onProgress(plan.size(), plan.size());
    return runs;
}

} // namespace costscope
