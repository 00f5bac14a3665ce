// SPDX-License-Identifier: MIT
// RLX calibration caches (cost-model.md §8) read as Costscope profiles.
#include "analysis/profile_io.h"

#include "formats/graph_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace costscope {

namespace {

struct RlxDefaults {
    double dispatchNs;
    double memoryBw;
    bool unified;
};

// What RLX uses for the numbers its cache does not hold (cost-model.md §4): dispatch is never calibrated,
// bandwidth only by MLX.
RlxDefaults defaultsFor(Device d)
{
    switch (d) {
    case Device::Cuda: return {3000, 900, false};
    case Device::Rocm: return {3000, 800, false};
    case Device::Metal:
    case Device::Mlx:
    case Device::Ane: return {2000, 200, true};
    case Device::Cpu: return {300, 30, true};
    default: return {5000, 120, false};
    }
}

} // namespace

Result<DeviceProfile> loadRlxCalibrationCache(const std::string& path)
{
    auto bytes = readFileBytes(path);
    if (!bytes)
        return Diagnostic::error(path + ": " + bytes.error().message);
    auto j = nlohmann::json::parse(*bytes, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Diagnostic::error(path + ": not a JSON object");
    const std::filesystem::path file(path);
    const std::string stem = file.stem().string();
    const auto dash = stem.find("-calib-");
    auto device = parseDevice(dash == std::string::npos ? std::string_view{} : std::string_view(stem).substr(0, dash));
    if (!device)
        return Diagnostic::error(path + ": file name does not start with a known backend ('cuda-calib-...')");
    auto number = [&](const char* key) -> std::optional<double> {
        auto it = j.find(key);
        if (it == j.end() || !it->is_number())
            return std::nullopt;
        return it->get<double>();
    };
    auto rate = number("sgemm_gflops");
    if (!rate || *rate <= 0)
        return Diagnostic::error(path + ": key 'sgemm_gflops': expected a positive number");
    const RlxDefaults dflt = defaultsFor(*device);
    DeviceProfile p;
    p.name = "rlx-cache/" + stem;
    p.device = *device;
    p.source = "RLX calibration cache " + path;
    p.calibration = Calibration::Measured;
    p.description = "Calibrated by RLX";
    if (auto it = j.find("device_name"); it != j.end() && it->is_string())
        p.description += " on " + it->get<std::string>();
    p.description += ".";
    p.sgemmGflops = *rate;
    if (*rate > 1e6) {
        p.sgemmGflops = *rate / 1e9;
        p.description += " RLX stored sgemm_gflops in FLOP/s (" + std::to_string(*rate)
                       + "); Costscope divided it by 1e9.";
    }
    p.roundtripNs = number("roundtrip_overhead_ns").value_or(0);
    p.dispatchNs = dflt.dispatchNs;
    p.unifiedMemory = dflt.unified;
    p.memoryBw = number("memory_bw_gbps").value_or(dflt.memoryBw);
    if (!number("memory_bw_gbps"))
        p.description += " Bandwidth not measured: RLX default used.";
    return p;
}

} // namespace costscope
