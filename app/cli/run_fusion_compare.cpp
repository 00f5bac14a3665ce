// SPDX-License-Identifier: MIT
#include "cli/run_fusion_compare.h"

#include "cli/args.h"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace costscope::cli {

namespace {
using Json = nlohmann::ordered_json;

Json wholeJson(const TimingStats& t, double overheadNs)
{
    return {{"runs", t.runs},    {"median_ns", t.medianNs}, {"min_ns", t.minNs},
            {"max_ns", t.maxNs}, {"spread", t.spread},      {"instrumentation_overhead_ns", overheadNs}};
}

std::string us(double ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", ns / 1e3);
    return buf;
}

std::string share(const Json& j, const char* model)
{
    const std::size_t n = j["kernels_checked"].get<std::size_t>();
    const double s = j["within_25_share"][model].get<double>();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%zu/%zu (%.0f %%)", std::size_t(std::lround(s * double(n))), n, 100 * s);
    return buf;
}
} // namespace

Json fusionVerificationJson(const Graph& g, const FusionCompareRequest& r, const FusionVerification& v)
{
    Json j;
    j["graph"] = g.name;
    j["file"] = r.file;
    j["backend"] = v.backend;
    j["device"] = {{"index", r.device.index}, {"name", r.device.name}};
    j["bindings"] = r.bindings;
    j["fusion"] = "compare";
    j["target"] = v.target;
    j["profile"] = v.profile;
    j["tolerance"] = kFusionGainTolerance;
    j["unfused"] = wholeJson(v.unfusedWhole, v.unfusedOverheadNs);
    j["fused"] = wholeJson(v.fusedWhole, v.fusedOverheadNs);
    j["measured_gain_ns"] = double(v.unfusedWhole.medianNs - v.fusedWhole.medianNs);
    j["planned_groups"] = v.plannedGroups;
    if (const std::string why = v.nothingToVerify(); !why.empty())
        j["not_verified"] = why;
    auto kernels = Json::array();
    for (const FusedKernelCheck& k : v.kernels) {
        Json kj = {
            {"kernel", k.kernel},
            {"members", k.members},
            {"unfused_ns", k.unfusedNs},
            {"fused_ns", k.fusedNs},
            {"measured_gain_ns", k.measuredGainNs},
            {"predicted_gain_ns", {{"rlx_gate", k.rlxGateGainNs}, {"costscope", k.costscopeGainNs}}},
            {"predicted_ns", {{"costscope_unfused", k.costscopeUnfusedNs}, {"costscope_fused", k.costscopeFusedNs}}}};
        if (k.checked())
            kj["within_25"] = {{"rlx_gate", gainWithinTolerance(k.rlxGateGainNs, k.measuredGainNs)},
                               {"costscope", gainWithinTolerance(k.costscopeGainNs, k.measuredGainNs)}};
        else
            kj["problem"] = k.problem;
        kernels.push_back(std::move(kj));
    }
    j["kernels"] = kernels;
    j["kernels_checked"] = v.checkedKernels;
    j["within_25_share"] = {{"rlx_gate", v.rlxShareWithin}, {"costscope", v.costscopeShareWithin}};
    j["predicted_gain_ns"] = {{"rlx_gate", v.rlxGateGainNs}, {"costscope", v.costscopeGainNs}};
    return j;
}

void printFusionCompareText(const Json& j)
{
    const Json &unfused = j["unfused"], &fused = j["fused"];
    std::cout << "graph:   " << j["graph"].get<std::string>() << "\ndevice:  " << j["backend"].get<std::string>() << ':'
              << j["device"]["index"].get<int>() << " (" << j["device"]["name"].get<std::string>() << ")\n"
              << "unfused: median " << unfused["median_ns"].get<double>() / 1e6 << " ms over "
              << unfused["runs"].get<int>() << " runs\nfused:   median " << fused["median_ns"].get<double>() / 1e6
              << " ms over " << fused["runs"].get<int>()
              << " runs\nmeasured gain of the whole graph: " << j["measured_gain_ns"].get<double>() / 1e6 << " ms\n";
    if (j.contains("not_verified")) {
        std::cout << j["not_verified"].get<std::string>() << '\n';
        return;
    }
    std::cout << "fusion verified (gate target " << j["target"].get<std::string>() << ", Costscope profile "
              << j["profile"].get<std::string>() << "); times in us, each run's instrumentation overhead removed:\n"
              << "  kernel | nodes | unfused fused measured-gain | predicted gain: rlx-gate costscope\n";
    for (const Json& k : j["kernels"]) {
        std::string members;
        for (const Json& id : k["members"])
            members.append(members.empty() ? "" : ",").append(std::to_string(id.get<long long>()));
        const Json& p = k["predicted_gain_ns"];
        std::cout << "  " << k["kernel"].get<std::string>() << " | " << members << " | "
                  << us(k["unfused_ns"].get<double>()) << ' ' << us(k["fused_ns"].get<double>()) << ' '
                  << us(k["measured_gain_ns"].get<double>()) << " | " << us(p["rlx_gate"].get<double>()) << ' '
                  << us(p["costscope"].get<double>());
        if (k.contains("problem"))
            std::cout << " (not checked: " << k["problem"].get<std::string>() << ')';
        std::cout << '\n';
    }
    std::cout << "predicted gain within 25 % of measured: rlx gate " << share(j, "rlx_gate") << ", costscope "
              << share(j, "costscope") << '\n';
}

int runFusionCompare(Backend& backend, const FusionCompareRequest& r)
{
    const Graph& g = *r.graph;
    auto runs = measureUnfusedAndFused(backend, g, r.bindings, r.device.index, r.inputs, r.measure);
    if (!runs) {
        std::cerr << runs.error().format(r.file) << '\n';
        return kBadInput;
    }
    const FusionVerification v =
        verifyFusion(g, r.bindings, backend.name(), *runs, r.predictions->costscopeProfile, r.predictions->costscope);
    if (!v.backendFused() && v.plannedGroups > 0) {
        std::cerr << "costscope-cli run --fusion compare: " << r.file << ": " << v.nothingToVerify() << '\n';
        return kBadInput;
    }
    const Json j = fusionVerificationJson(g, r, v);
    if (r.json)
        std::cout << j.dump(2) << '\n';
    else
        printFusionCompareText(j);
    return kOk;
}

} // namespace costscope::cli
