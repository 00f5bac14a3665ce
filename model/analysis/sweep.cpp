// SPDX-License-Identifier: MIT
#include "analysis/sweep.h"

#include "analysis/costscope_cost_model.h"
#include "analysis/rlx_cost_model.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace costscope {

namespace {

// Device names, or profile names where two profiles share a device.
std::vector<std::string> profileLabels(const std::vector<DeviceProfile>& profiles)
{
    std::vector<std::string> labels;
    for (const DeviceProfile& p : profiles) {
        const auto sameDevice = std::count_if(profiles.begin(), profiles.end(),
                                              [&](const DeviceProfile& q) { return q.device == p.device; });
        labels.push_back(sameDevice > 1 ? p.name : std::string(deviceName(p.device)));
    }
    return labels;
}

// Where tFrom = tTo between x0 and x1, taking ln(tTo / tFrom) as linear in ln(x) (costs grow roughly as powers
// of the swept size); linear in x when a value is 0 or a cost is not positive.
double equalCostPoint(double x0, double x1, double from0, double to0, double from1, double to1)
{
    const bool logOk = x0 > 0 && x1 > 0 && from0 > 0 && to0 > 0 && from1 > 0 && to1 > 0;
    const double f0 = logOk ? std::log(to0 / from0) : to0 - from0;
    const double f1 = logOk ? std::log(to1 / from1) : to1 - from1;
    const double t = f0 == f1 ? 1.0 : std::clamp(f0 / (f0 - f1), 0.0, 1.0);
    return logOk ? std::exp(std::log(x0) + t * (std::log(x1) - std::log(x0))) : x0 + t * (x1 - x0);
}

} // namespace

namespace {

Crossover crossoverAt(std::size_t i, std::size_t from, std::size_t to, const std::vector<std::int64_t>& values,
                      const std::vector<std::vector<double>>& totalNs, const std::vector<std::string>& labels,
                      const std::string& symbol)
{
    Crossover c;
    c.from = from;
    c.to = to;
    c.firstValue = values[i];
    c.at = equalCostPoint(static_cast<double>(values[i - 1]), static_cast<double>(values[i]), totalNs[i - 1][from],
                          totalNs[i - 1][to], totalNs[i][from], totalNs[i][to]);
    const auto beginsAt = static_cast<std::int64_t>(std::ceil(c.at - 1e-9));
    c.text = labels[to] + " beats " + labels[from] + " from " + symbol + " " + std::to_string(beginsAt)
           + " (first swept value: " + std::to_string(c.firstValue) + ")";
    return c;
}

} // namespace

std::vector<std::size_t> sweepPicks(const std::vector<std::vector<double>>& totalNs, const std::vector<bool>& ranked)
{
    std::vector<std::size_t> pick;
    for (const auto& row : totalNs)
        pick.push_back(cheapestRanked(row, ranked).value_or(0));
    return pick;
}

std::vector<Crossover> findCrossovers(const std::vector<std::int64_t>& values,
                                      const std::vector<std::vector<double>>& totalNs,
                                      const std::vector<std::size_t>& pick, const std::vector<std::string>& labels,
                                      const std::string& symbol)
{
    std::vector<Crossover> out;
    for (std::size_t i = 1; i < pick.size() && i < values.size(); ++i)
        if (pick[i] != pick[i - 1])
            out.push_back(crossoverAt(i, pick[i - 1], pick[i], values, totalNs, labels, symbol));
    return out;
}

std::vector<Crossover> unpickedCrossovers(const std::vector<std::int64_t>& values,
                                          const std::vector<std::vector<double>>& totalNs,
                                          const std::vector<std::size_t>& pick,
                                          const std::vector<std::size_t>& cheapest,
                                          const std::vector<std::string>& labels, const std::string& symbol,
                                          const std::function<std::string(std::size_t from, std::size_t to)>& why)
{
    std::vector<Crossover> out;
    for (std::size_t i = 1; i < cheapest.size() && i < pick.size() && i < values.size(); ++i) {
        const bool followed = pick[i - 1] == cheapest[i - 1] && pick[i] == cheapest[i];
        if (cheapest[i] == cheapest[i - 1] || followed)
            continue;
        Crossover c = crossoverAt(i, cheapest[i - 1], cheapest[i], values, totalNs, labels, symbol);
        c.picked = false;
        c.text.pop_back(); // the closing parenthesis: the reason goes inside it
        c.text += "; not picked: " + why(c.from, c.to) + ")";
        out.push_back(std::move(c));
    }
    return out;
}

SweepResult runSweep(const Graph& g, const CostModel& model, const SweepRequest& request,
                     const std::atomic<bool>* cancel)
{
    SweepResult r;
    r.values = request.values;
    const std::size_t nv = request.values.size(), np = request.profiles.size(), ns = request.series.size();
    r.totalNs.assign(nv, std::vector<double>(np, 0.0));
    if (request.keepNodeCosts)
        r.costs.assign(nv, std::vector<GraphCost>(np));
    r.seriesValues.assign(ns, std::vector<double>(nv, 0.0));
    r.skipped.assign(nv, {});
    if (!g.nodes.empty())
        g.indexOf(g.nodes.front().id); // build the graph's lazy index before threads read it

    auto bindingsAt = [&](std::size_t v) {
        Bindings b = request.base;
        b[request.symbol] = request.values[v];
        return b;
    };
    // Both models' node work does not depend on the profile: compute it once per value and price it for every
    // profile in the same task.
    const auto* costscope = dynamic_cast<const CostscopeCostModel*>(&model);
    const auto* rlx = dynamic_cast<const RlxCostModel*>(&model);
    const bool shared = costscope || rlx;
    const std::size_t costTasks = np == 0 ? 0 : (shared ? nv : nv * np), tasks = costTasks + ns * nv;
    auto store = [&](std::size_t v, std::size_t p, GraphCost gc) {
        r.totalNs[v][p] = gc.totalNs;
        if (p == 0)
            r.skipped[v] = gc.skipped;
        if (request.keepNodeCosts)
            r.costs[v][p] = std::move(gc);
    };
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stopped{false};
    auto worker = [&] {
        for (;;) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                return;
            }
            const std::size_t t = next.fetch_add(1);
            if (t >= tasks)
                return;
            if (t < costTasks && costscope) {
                const GraphWork work = costscope->work(g, bindingsAt(t));
                for (std::size_t p = 0; p < np; ++p)
                    store(t, p, costscope->price(g, work, request.profiles[p]));
            } else if (t < costTasks && rlx) {
                const RlxWork work = rlx->work(g, bindingsAt(t));
                for (std::size_t p = 0; p < np; ++p)
                    store(t, p, rlx->price(work, request.profiles[p], work.io).cost);
            } else if (t < costTasks) {
                store(t / np, t % np, model.estimate(g, request.profiles[t % np], bindingsAt(t / np)));
            } else {
                const std::size_t s = (t - costTasks) / nv, v = (t - costTasks) % nv;
                r.seriesValues[s][v] = request.series[s].evaluate(bindingsAt(v));
            }
        }
    };
    const std::size_t threads =
        std::max<std::size_t>(1, std::min<std::size_t>(std::thread::hardware_concurrency(), tasks));
    std::vector<std::thread> pool;
    for (std::size_t i = 1; i < threads; ++i)
        pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool)
        t.join();
    r.cancelled = stopped;
    if (r.cancelled || np == 0)
        return r;

    std::vector<Calibration> tags;
    for (const DeviceProfile& p : request.profiles)
        tags.push_back(p.calibration);
    r.ranked = rankedByPick(tags, request.rlxVersion);
    r.pick = sweepPicks(r.totalNs, r.ranked);
    const std::vector<std::string> labels =
        request.labels.size() == request.profiles.size() ? request.labels : profileLabels(request.profiles);
    r.crossovers = findCrossovers(r.values, r.totalNs, r.pick, labels, request.symbol);
    // Where an unranked profile would have been the cheapest, its crossovers are still worth seeing.
    const std::vector<std::size_t> cheapest = sweepPicks(r.totalNs, std::vector<bool>(np, true));
    auto why = [&](std::size_t from, std::size_t to) {
        std::string names;
        int count = 0;
        for (std::size_t p : {to, from})
            if (!r.ranked[p])
                names += (count++ ? " and " : "") + labels[p];
        return names + (count > 1 ? " are" : " is") + " Uncalibrated (RLX "
             + std::string(rlxVersionName(request.rlxVersion)) + ")";
    };
    for (Crossover& c : unpickedCrossovers(r.values, r.totalNs, r.pick, cheapest, labels, request.symbol, why))
        r.crossovers.push_back(std::move(c));
    std::stable_sort(r.crossovers.begin(), r.crossovers.end(),
                     [](const Crossover& a, const Crossover& b) { return a.firstValue < b.firstValue; });
    return r;
}

} // namespace costscope
