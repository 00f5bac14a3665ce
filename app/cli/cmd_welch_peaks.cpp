// SPDX-License-Identifier: MIT
#include "analysis/welch_peaks.h"
#include "cli/analysis_options.h"
#include "cli/commands.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageText = "usage: costscope-cli welch-peaks costs --device D --batch N [--n-fft 256] [--k 16] "
                                   "[--learned ACTIVE/TOTAL] [--profiles SET] [--json]";

int usage(const std::string& error)
{
    std::cerr << kUsageText << (error.empty() ? "" : "\n" + error) << '\n';
    return kUsage;
}

// "2/8": learned gates available, 2 of 8 active.
std::optional<LearnedGates> learnedOption(const Args& a, std::string* error)
{
    auto text = a.option("learned");
    if (!text)
        return LearnedGates{};
    int active = 0, total = 0;
    char slash = 0;
    char extra = 0;
    if (std::sscanf(text->c_str(), "%d%c%d%c", &active, &slash, &total, &extra) != 3 || slash != '/' || active < 0
        || total < 1 || active > total) {
        *error = "--learned expects ACTIVE/TOTAL with 0 <= ACTIVE <= TOTAL, TOTAL >= 1, found '" + *text + "'";
        return std::nullopt;
    }
    return LearnedGates{true, active, total};
}

nlohmann::ordered_json nsJson(double ns)
{
    return std::isinf(ns) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(ns);
}

std::string nsText(double ns)
{
    return std::isinf(ns) ? std::string("not open") : std::to_string(ns) + " ns";
}
} // namespace

int cmdWelchPeaks(const std::vector<std::string>& argv)
{
    if (argv.empty() || argv[0] != "costs")
        return usage(argv.empty() ? "" : "unknown welch-peaks subcommand '" + argv[0] + "'");
    std::string err, setName;
    auto a = Args::parse({argv.begin() + 1, argv.end()}, {"json"},
                         {"device", "batch", "n-fft", "k", "learned", "profiles"}, &err);
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
        std::cout << j.dump(2) << '\n';
        return kOk;
    }
    const double useful = welchUsefulBytes(*batch, WelchParams::fast(*nFft, *k));
    std::cout << "Welch-peaks strategies: " << deviceName(*device) << " (" << setName << "), batch " << *batch
              << ", n_fft " << *nFft << ", k " << *k << '\n'
              << "  ultra    " << nsText(c.ultraNs) << '\n'
              << "  fast     " << nsText(c.fastNs) << '\n'
              << "  rlx      " << nsText(c.rlxNs) << '\n'
              << "  learned  " << nsText(c.learnedNs) << '\n'
              << "  pick     " << welchStrategyName(c.pick) << '\n'
              << "  fast path algorithm bandwidth " << algorithmBandwidth(useful, c.fastNs) << " GB/s\n";
    return kOk;
}

} // namespace costscope::cli
