// SPDX-License-Identifier: MIT
#include "fleet/sweep_device_report.h"

#include <filesystem>

namespace costscope {

namespace {
using Json = nlohmann::ordered_json;

double number(const Json& j, const char* pointer)
{
    const Json::json_pointer at(pointer);
    return j.contains(at) && j[at].is_number() ? j[at].get<double>() : 0.0;
}

std::string text(const Json& j, const char* pointer)
{
    const Json::json_pointer at(pointer);
    return j.contains(at) && j[at].is_string() ? j[at].get<std::string>() : std::string();
}

// What the run JSON says of one model's prediction (its total is the part a timed run measures, run_output.cpp).
GraphCost predictedCost(const Json& run, const char* model)
{
    GraphCost c;
    c.model = model;
    const std::string at = std::string("/predicted/") + model;
    c.profile = text(run, (at + "/profile").c_str());
    c.totalNs = number(run, (at + "/total_ns").c_str());
    return c;
}
} // namespace

MultiDeviceRunReport sweepDeviceReport(const std::vector<SweepCellResult>& results)
{
    MultiDeviceRunReport report;
    report.backend = "ray";
    for (const SweepCellResult& r : results) {
        DeviceRunReport d;
        d.run.device.backend = r.cell.backend;
        d.run.device.index = r.cell.deviceIndex;
        const std::string model = r.succeeded ? text(r.run, "/device/name") : std::string();
        d.run.device.name = std::filesystem::path(r.cell.graph).stem().string() + " b" + std::to_string(r.cell.batch)
                            + " on " + r.cell.device + (model.empty() ? "" : " (" + model + ")");
        if (!r.succeeded) {
            d.run.error = r.error;
            report.devices.push_back(std::move(d));
            continue;
        }
        TimingStats whole;
        whole.runs = static_cast<int>(number(r.run, "/whole/runs"));
        whole.medianNs = static_cast<std::int64_t>(number(r.run, "/whole/median_ns"));
        whole.minNs = static_cast<std::int64_t>(number(r.run, "/whole/min_ns"));
        whole.maxNs = static_cast<std::int64_t>(number(r.run, "/whole/max_ns"));
        whole.spread = number(r.run, "/whole/spread");
        d.run.isolated = whole;
        if (r.run.contains(Json::json_pointer("/predicted/costscope"))) {
            RunPredictions p;
            p.rlx = predictedCost(r.run, "rlx");
            p.costscope = predictedCost(r.run, "costscope");
            p.rlxProfile.name = p.rlx.profile;
            p.costscopeProfile.name = p.costscope.profile;
            d.predicted = std::move(p);
        } else {
            d.predictionProblem = "the run made no prediction";
        }
        report.devices.push_back(std::move(d));
    }
    return report;
}

} // namespace costscope
