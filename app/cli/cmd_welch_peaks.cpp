// SPDX-License-Identifier: MIT
#include "analysis/gate_sweep.h"
#include "analysis/sweep.h"
#include "analysis/welch_peaks.h"
#include "cli/analysis_options.h"
#include "cli/commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageText
    = "usage: costscope-cli welch-peaks costs --device D --batch N [--n-fft 256] [--k 16] [--learned ACTIVE/TOTAL]"
      " [--profiles SET] [--json]\n"
      "       costscope-cli welch-peaks sweep --values 1:8192:x2 [--device D] [--n-fft 256] [--k 16]"
      " [--learned ACTIVE/TOTAL] [--profiles SET] [--json]";
using Json = nlohmann::ordered_json;

int usage(const std::string& error)
{
    std::cerr << kUsageText << (error.empty() ? "" : "\n" + error) << '\n';
    return kUsage;
}

// --learned ACTIVE/TOTAL ("2/8": learned gates available, 2 of 8 active); without it, no learned gates (the spec's
// default), and the learned strategy is not open.
std::optional<LearnedGates> learnedOption(const Args& a, std::string* error)
{
    auto text = a.option("learned");
    if (!text)
        return LearnedGates{};
    auto gates = parseLearnedGates(*text);
    if (!gates || !gates->available) {
        *error = "--learned expects ACTIVE/TOTAL with 0 <= ACTIVE <= TOTAL, TOTAL >= 1, found '" + *text + "'";
        return std::nullopt;
    }
    return *gates;
}

Json nsJson(double ns)
{
    return std::isinf(ns) ? Json(nullptr) : Json(ns);
}

Json nsListJson(const std::vector<double>& ns)
{
    Json j = Json::array();
    for (double v : ns)
        j.push_back(nsJson(v));
    return j;
}

std::string nsText(double ns)
{
    return std::isinf(ns) ? std::string("not open") : std::to_string(ns) + " ns";
}

int costsCommand(const std::vector<std::string>& argv)
{
    std::string err, setName;
    auto a = Args::parse(argv, {"json"}, {"device", "batch", "n-fft", "k", "learned", "profiles"}, &err);
    if (!a || !a->positional().empty() || !a->option("device") || !a->option("batch"))
        return usage(err.empty() ? "welch-peaks costs needs --device and --batch" : err);
    auto device = deviceOption(*a->option("device"), &err);
    auto batch = positiveInt(*a, "batch", 0, &err);
    auto nFft = positiveInt(*a, "n-fft", 256, &err);
    auto k = positiveInt(*a, "k", 16, &err);
    auto learned = learnedOption(*a, &err);
    auto set = profileSetOption(*a, &setName, &err);
    if (!device || !batch || !nFft || !k || !learned || !set)
        return usage(err);
    const WelchStrategyCosts c = welchStrategyCosts(*set, *device, *batch, *nFft, *k, *learned);
    if (a->flag("json")) {
        nlohmann::ordered_json j;
        j["ultra_ns"] = nsJson(c.ultraNs);
        j["fast_ns"] = nsJson(c.fastNs);
        j["rlx_ns"] = nsJson(c.rlxNs);
        j["learned_ns"] = nsJson(c.learnedNs);
        j["pick"] = welchStrategyName(c.pick);
        j["learned_gates"] = learnedGatesText(*learned);
        std::cout << j.dump(2) << '\n';
        return kOk;
    }
    const double useful = welchUsefulBytes(*batch, WelchParams::fast(*nFft, *k));
    std::cout << "Welch-peaks strategies: " << deviceName(*device) << " (" << setName << "), batch " << *batch
              << ", n_fft " << *nFft << ", k " << *k << '\n'
              << "  ultra    " << nsText(c.ultraNs) << '\n'
              << "  fast     " << nsText(c.fastNs) << '\n'
              << "  rlx      " << nsText(c.rlxNs) << '\n'
              << "  learned  " << nsText(c.learnedNs)
              << (learned->available ? "" : " (no learned gates: --learned ACTIVE/TOTAL)") << '\n'
              << "  pick     " << welchStrategyName(c.pick) << '\n'
              << "  fast path algorithm bandwidth " << algorithmBandwidth(useful, c.fastNs) << " GB/s\n";
    return kOk;
}

void printSweepText(const std::vector<std::int64_t>& values, const std::vector<GateCurve>& gates,
                    const WelchStrategySweep& s)
{
    std::cout << "fusion-gate score (ns; * = fuse) per target\n" << std::setw(8) << "batch";
    for (const GateCurve& c : gates)
        std::cout << std::setw(15) << c.label;
    std::cout << '\n' << std::fixed << std::setprecision(0);
    for (std::size_t v = 0; v < values.size(); ++v) {
        std::cout << std::setw(8) << values[v];
        for (const GateCurve& c : gates)
            std::cout << std::setw(14) << c.scoreNs[v] << (c.fuse[v] ? '*' : ' ');
        std::cout << '\n';
    }
    std::cout << std::setw(8) << "min gain";
    for (const GateCurve& c : gates)
        std::cout << std::setw(14) << c.minGainNs << ' ';
    std::cout << "\n\nWelch-peaks strategies on " << deviceName(s.device) << " (ns; - = not open)\n" << std::setw(8)
              << "batch";
    for (const char* name : {"ultra", "fast", "rlx", "learned"})
        std::cout << std::setw(15) << name;
    std::cout << "   pick\n";
    for (std::size_t v = 0; v < values.size(); ++v) {
        std::cout << std::setw(8) << values[v];
        for (const auto& row : s.ns)
            if (std::isinf(row[v]))
                std::cout << std::setw(15) << "-";
            else
                std::cout << std::setw(15) << row[v];
        std::cout << "   " << welchStrategyName(s.pick[v]) << '\n';
    }
}

// The gate per fusion target and the strategy costs of one device over a list of batches.
int sweepCommand(const std::vector<std::string>& argv)
{
    std::string err, setName;
    auto a = Args::parse(argv, {"json"}, {"values", "device", "n-fft", "k", "learned", "profiles"}, &err);
    if (!a || !a->positional().empty() || !a->option("values"))
        return usage(err.empty() ? "welch-peaks sweep needs --values" : err);
    auto values = parseSweepValues(*a->option("values"));
    if (!values)
        return usage(values.error().message);
    if (std::find(values->begin(), values->end(), 0) != values->end())
        return usage("welch-peaks sweep: batch values must be positive");
    auto device = deviceOption(a->option("device").value_or("cpu"), &err);
    auto nFft = positiveInt(*a, "n-fft", 256, &err);
    auto k = positiveInt(*a, "k", 16, &err);
    auto learned = learnedOption(*a, &err);
    auto set = profileSetOption(*a, &setName, &err);
    if (!device || !nFft || !k || !learned || !set)
        return usage(err);
    const std::vector<GateCurve> gates = welchGateSweep(*set, *values, *nFft, *k);
    const WelchStrategySweep strategies = welchStrategySweep(*set, *device, *values, *nFft, *k, *learned);
    if (!a->flag("json")) {
        std::cout << "Welch peaks under " << setName << ", n_fft " << *nFft << ", k " << *k << ", learned gates "
                  << learnedGatesText(*learned) << "\n\n";
        printSweepText(*values, gates, strategies);
        return kOk;
    }
    Json j;
    j["profiles"] = setName;
    j["n_fft"] = *nFft;
    j["k"] = *k;
    j["learned_gates"] = learnedGatesText(*learned);
    j["values"] = *values;
    j["gates"] = Json::array();
    const auto& devices = welchGateDevices();
    for (std::size_t t = 0; t < gates.size(); ++t)
        j["gates"].push_back({{"target", gates[t].label}, {"device", deviceName(devices[t])},
                              {"min_gain_ns", gates[t].minGainNs}, {"score_ns", gates[t].scoreNs},
                              {"should_fuse", gates[t].fuse}});
    Json picks = Json::array();
    for (WelchStrategy s : strategies.pick)
        picks.push_back(welchStrategyName(s));
    j["strategies"] = {{"device", deviceName(strategies.device)}, {"ultra_ns", nsListJson(strategies.ns[0])},
                       {"fast_ns", nsListJson(strategies.ns[1])}, {"rlx_ns", nsListJson(strategies.ns[2])},
                       {"learned_ns", nsListJson(strategies.ns[3])}, {"pick", picks}};
    std::cout << j.dump(2) << '\n';
    return kOk;
}
} // namespace

int cmdWelchPeaks(const std::vector<std::string>& argv)
{
    if (argv.empty())
        return usage("");
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (argv[0] == "costs")
        return costsCommand(rest);
    if (argv[0] == "sweep")
        return sweepCommand(rest);
    return usage("unknown welch-peaks subcommand '" + argv[0] + "'");
}

} // namespace costscope::cli
