// SPDX-License-Identifier: MIT
#include "analysis/fuse_what_if.h"
#include "analysis/welch_peaks.h"
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/load.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageText =
    "usage: costscope-cli gate welch-peaks --device D --batch N [--n-fft 256] [--k 16] [--profiles SET] [--json]\n"
    "       costscope-cli gate fuse FILE --nodes 3,4,5 [--device D]... [--bind NAME=VALUE]... [--json]";

int usage(const std::string& error)
{
    std::cerr << kUsageText << (error.empty() ? "" : "\n" + error) << '\n';
    return kUsage;
}

const char* yesNo(bool b)
{
    return b ? "yes" : "no";
}

int welchGateCommand(const std::vector<std::string>& argv)
{
    std::string err, setName;
    auto a = Args::parse(argv, {"json"}, {"device", "batch", "n-fft", "k", "profiles"}, &err);
    if (!a || !a->positional().empty() || !a->option("device") || !a->option("batch"))
        return usage(err.empty() ? "gate welch-peaks needs --device and --batch" : err);
    auto device = deviceOption(*a->option("device"), &err);
    auto batch = positiveInt(*a, "batch", 0, &err);
    auto nFft = positiveInt(*a, "n-fft", 256, &err);
    auto k = positiveInt(*a, "k", 16, &err);
    auto set = profileSetOption(*a, &setName, &err);
    if (!device || !batch || !nFft || !k || !set)
        return usage(err);
    const WelchGate g = welchGate(*set, *device, *batch, *nFft, *k);
    if (a->flag("json")) {
        nlohmann::ordered_json j;
        j["device"] = deviceName(g.device);
        j["batch"] = g.batch;
        j["n_fft"] = g.nFft;
        j["k"] = g.k;
        j["score_ns"] = g.scoreNs;
        j["min_gain_ns"] = g.minGainNs;
        j["readback_saved_bytes"] = g.readbackSavedBytes;
        j["sync_points_saved"] = g.syncPointsSaved;
        j["should_fuse_io"] = g.shouldFuseIo;
        j["should_fuse"] = g.shouldFuse;
        std::cout << j.dump(2) << '\n';
        return kOk;
    }
    std::cout << "Welch-peaks fusion gate: " << deviceName(g.device) << " (" << setName << "), batch " << g.batch
              << ", n_fft " << g.nFft << ", k " << g.k << '\n'
              << "  score              " << g.scoreNs << " ns (min gain " << g.minGainNs << " ns)\n"
              << "  readback saved     " << g.readbackSavedBytes << " bytes\n"
              << "  sync points saved  " << g.syncPointsSaved << '\n'
              << "  fuse on IO         " << yesNo(g.shouldFuseIo) << '\n'
              << "  compute floor ok   " << yesNo(g.computeFloorOk) << '\n'
              << "  should fuse        " << yesNo(g.shouldFuse) << '\n';
    return kOk;
}

nlohmann::ordered_json ioJson(const IoProfile& io)
{
    return {{"kernel_launches", io.kernelLaunches},
            {"sync_points", io.syncPoints},
            {"host_output_bytes", io.hostOutputBytes},
            {"device_traffic_bytes", io.deviceTrafficBytes}};
}

int fuseCommand(const std::vector<std::string>& argv)
{
    std::string err;
    auto a = Args::parse(argv, {"json"}, {"nodes", "device", "bind"}, &err);
    if (!a || a->positional().size() != 1 || !a->option("nodes"))
        return usage(err.empty() ? "gate fuse needs FILE and --nodes" : err);
    auto ids = idList(*a->option("nodes"), &err);
    auto bindings = bindingsOption(*a, &err);
    std::vector<Device> devices;
    for (const std::string& text : a->options("device")) {
        auto d = deviceOption(text, &err);
        if (!d || !fusionTargetFor(*d))
            return usage(err.empty() ? "device " + text + " has no RLX fusion gate" : err);
        devices.push_back(*d);
    }
    if (!ids || !bindings)
        return usage(err);
    const std::string& path = a->positional()[0];
    auto loaded = loadForCommand(path, a->flag("json"));
    if (!loaded)
        return kBadInput;
    auto w = fuseWhatIf(loaded->graph, *ids, *bindings);
    if (!w) {
        std::cerr << w.error().format(path) << '\n';
        return kUsage;
    }
    // One row per requested device, or one per fusion target when none is named.
    std::vector<std::pair<std::string, FuseVerdict>> rows;
    for (const FuseVerdict& v : w->verdicts)
        if (devices.empty())
            rows.emplace_back("", v);
    for (Device d : devices)
        for (const FuseVerdict& v : w->verdicts)
            if (v.target == fusionTargetFor(d))
                rows.emplace_back(std::string(deviceName(d)), v);
    if (a->flag("json")) {
        nlohmann::ordered_json j;
        j["nodes"] = w->nodes;
        j["before"] = ioJson(w->before);
        j["after"] = ioJson(w->after);
        j["benefit"] = {{"launches_saved", w->benefit.launchesSaved},
                        {"sync_points_saved", w->benefit.syncPointsSaved},
                        {"host_readback_bytes_saved", w->benefit.hostReadbackBytesSaved},
                        {"device_traffic_bytes_saved", w->benefit.deviceTrafficBytesSaved}};
        auto verdicts = nlohmann::ordered_json::array();
        for (const auto& [device, v] : rows) {
            nlohmann::ordered_json row;
            if (!device.empty())
                row["device"] = device;
            row["target"] = fusionTargetName(v.target);
            row["score_ns"] = v.scoreNs;
            row["min_gain_ns"] = v.minGainNs;
            row["should_fuse"] = v.shouldFuse;
            verdicts.push_back(row);
        }
        j["verdicts"] = verdicts;
        std::cout << j.dump(2) << '\n';
        return kOk;
    }
    const FusionBenefit& b = w->benefit;
    std::cout << "fuse " << w->nodes.size() << " nodes of " << path << ": launches saved " << b.launchesSaved
              << ", sync points saved " << b.syncPointsSaved << ", readback bytes saved " << b.hostReadbackBytesSaved
              << ", traffic bytes saved " << b.deviceTrafficBytesSaved << '\n';
    for (const auto& [device, v] : rows)
        std::cout << "  " << (device.empty() ? "" : device + " → ") << fusionTargetName(v.target) << ": score "
                  << v.scoreNs << " ns, min gain " << v.minGainNs << " ns: " << (v.shouldFuse ? "fuse" : "keep apart")
                  << '\n';
    return kOk;
}
} // namespace

int cmdGate(const std::vector<std::string>& argv)
{
    if (argv.empty())
        return usage("");
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (argv[0] == "welch-peaks")
        return welchGateCommand(rest);
    if (argv[0] == "fuse")
        return fuseCommand(rest);
    return usage("unknown gate '" + argv[0] + "'");
}

} // namespace costscope::cli
