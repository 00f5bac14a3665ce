// SPDX-License-Identifier: MIT
#include "cli/run_output.h"

#include "cli/run_fusion_compare.h"

#include <cmath>
#include <iostream>

namespace costscope::cli {

namespace {
using Json = nlohmann::ordered_json;

double percent(const Json& error)
{
    return std::round(error.get<double>() * 1000) / 10;
}
} // namespace

void printRunText(const Json& j)
{
    if (j.value("fusion", "") == "compare") {
        printFusionCompareText(j);
        return;
    }
    const Json& whole = j["whole"];
    std::cout << "graph:   " << j["graph"].get<std::string>() << "\ndevice:  " << j["backend"].get<std::string>() << ':'
              << j["device"]["index"].get<int>() << " (" << j["device"]["name"].get<std::string>()
              << ")\nruns:    " << whole["runs"].get<long long>()
              << "\nmedian:  " << whole["median_ns"].get<double>() / 1e6
              << " ms\nmin:     " << whole["min_ns"].get<double>() / 1e6
              << " ms\nmax:     " << whole["max_ns"].get<double>() / 1e6
              << " ms\nspread:  " << whole["spread"].get<double>() * 100 << " %\n";
    const Json& predicted = j["predicted"];
    for (const char* model : {"rlx", "costscope"}) {
        const Json& c = predicted[model];
        std::cout << "predicted " << model << " (" << c["profile"].get<std::string>()
                  << (c.contains("transferred_from") ? ", transferred" : "")
                  << "): " << c["total_ns"].get<double>() / 1e6 << " ms, error " << percent(c["error"]) << " %\n";
    }
    if (predicted.contains("costscope_fused")) { // each kernel the backend fused priced as that kernel
        const Json& c = predicted["costscope_fused"];
        std::cout << "predicted costscope, fused kernels priced as kernels: " << c["total_ns"].get<double>() / 1e6
                  << " ms, error " << percent(c["error"]) << " %\n";
    }
    const bool host = j.contains("host_speed");
    if (host) {
        const Json& h = j["host_speed"];
        const Json& c = predicted["costscope_host_adjusted"];
        std::cout << "host now vs calibration: gemm " << h["gemm"].get<double>() << "x, kernels "
                  << h["kernel"].get<double>() << "x, memory " << h["memory"].get<double>() << "x, dispatch "
                  << h["dispatch"].get<double>() << "x\npredicted costscope, host-adjusted ("
                  << c["profile"].get<std::string>() << "): " << c["total_ns"].get<double>() / 1e6 << " ms, error "
                  << percent(c["error"]) << " %\n";
    }
    if (!j["per_node"].empty())
        std::cout << "per node (ns): id op measured rlx costscope" << (host ? " costscope-host-adjusted" : "") << '\n';
    for (const Json& n : j["per_node"]) {
        const Json& p = n["predicted_ns"];
        std::cout << "  " << n["id"].get<long long>() << ' ' << n["op"].get<std::string>() << ' '
                  << n["measured_ns"].get<long long>() << ' ' << std::llround(p["rlx"].get<double>()) << ' '
                  << std::llround(p["costscope"].get<double>());
        if (host)
            std::cout << ' ' << std::llround(p["costscope_host_adjusted"].get<double>());
        if (n.contains("fused_nodes")) { // one kernel for several nodes (the CUDA backend's fusion)
            std::cout << " (one kernel with nodes";
            for (const Json& id : n["fused_nodes"])
                std::cout << ' ' << id.get<long long>();
            std::cout << ')';
        }
        std::cout << '\n';
    }
}

void printCheckLine(const Json& j)
{
    if (!j.contains("check"))
        return;
    const Json& c = j["check"];
    const std::string problem = c.value("problem", "");
    std::cerr << (c["pass"].get<bool>() ? "check passed" : "check FAILED") << " against "
              << c["reference"].get<std::string>() << ": max abs error " << c["max_abs_error"].get<double>()
              << ", max rel error " << c["max_rel_error"].get<double>() << (problem.empty() ? "" : " (" + problem + ")")
              << '\n';
}

Json predictedJson(const GraphCost& c, double measuredNs)
{
    const double ns = measuredPartNs(c);
    Json j{{"profile", c.profile},
           {"total_ns", ns},
           {"readback_ns", c.totalNs - ns},
           {"error", measuredNs > 0 ? (ns - measuredNs) / measuredNs : 0.0}};
    if (!c.transferredFrom.empty())
        j["transferred_from"] = c.transferredFrom;
    return j;
}

} // namespace costscope::cli
