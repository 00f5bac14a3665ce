// SPDX-License-Identifier: MIT
#include "analysis/device_transfer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace costscope {

namespace {

// Lower-case letters and digits only: "NVIDIA GeForce RTX 4090" and "nvidia-rtx4090" then share "rtx4090".
std::string lower(const std::string& s)
{
    std::string out;
    for (const unsigned char c : s)
        if (std::isalnum(c))
            out += char(std::tolower(c));
    return out;
}

// "nvidia-h100" -> "h100", "amd-mi300x" -> "mi300x": the part of a preset's name that names the model.
std::string modelToken(const std::string& presetName)
{
    const auto dash = presetName.find('-');
    return lower(dash == std::string::npos ? presetName : presetName.substr(dash + 1));
}

} // namespace

Result<TransferRatios> datasheetRatios(const DeviceProfile& fromSheet, const DeviceProfile& toSheet)
{
    if (fromSheet.device != toSheet.device)
        return Diagnostic::error("cannot transfer between device kinds: " + fromSheet.name + " is "
                                 + std::string(deviceName(fromSheet.device)) + ", " + toSheet.name + " is "
                                 + std::string(deviceName(toSheet.device)));
    auto peak = [](const DeviceProfile& p) { return p.peakGflops > 0 ? p.peakGflops : p.sgemmGflops; };
    for (const DeviceProfile* p : {&fromSheet, &toSheet})
        if (peak(*p) <= 0 || p->memoryBw <= 0)
            return Diagnostic::error("datasheet profile " + p->name + " has no FP32 peak or memory bandwidth");
    TransferRatios r;
    r.compute = peak(toSheet) / peak(fromSheet);
    r.memory = toSheet.memoryBw / fromSheet.memoryBw;
    r.readback = toSheet.readbackBw() / fromSheet.readbackBw();
    return r;
}

Result<DeviceProfile> transferProfile(const DeviceProfile& measured, const DeviceProfile& fromSheet,
                                      const DeviceProfile& toSheet, const std::string& name)
{
    if (measured.device != fromSheet.device)
        return Diagnostic::error("cannot transfer " + measured.name + " (" + std::string(deviceName(measured.device))
                                 + ") with the datasheet of " + fromSheet.name + " ("
                                 + std::string(deviceName(fromSheet.device)) + ")");
    auto ratios = datasheetRatios(fromSheet, toSheet);
    if (!ratios)
        return ratios.error();
    const TransferRatios r = *ratios;
    DeviceProfile t = measured;
    t.name = name.empty() ? "transferred-" + toSheet.name + "-from-" + measured.name : name;
    // Compute: every measured rate of arithmetic, and the GEMM tile waves' time per wave.
    t.sgemmGflops *= r.compute;
    t.smallSgemmGflops *= r.compute;
    t.peakGflops = (measured.peakGflops > 0 ? measured.peakGflops : fromSheet.peakGflops) * r.compute;
    for (SgemmPoint& p : t.sgemmTable)
        p.gflops *= r.compute;
    for (auto& [cls, g] : t.kernelGflops)
        g *= r.compute;
    for (auto& [cls, points] : t.kernelGflopsBySize)
        for (KernelRatePoint& p : points)
            p.gflops *= r.compute;
    for (TileWaves* w : {&t.matmulWaves, &t.convWaves})
        if (w->valid())
            w->stepNs /= r.compute;
    // Memory: streaming, strided copies, im2col; the host link by its own ratio.
    t.memoryBw *= r.memory;
    t.im2colBw *= r.memory;
    t.viewCopyBw *= r.memory;
    for (BandwidthPoint& p : t.memoryBwTable)
        p.gbps *= r.memory;
    if (measured.hostReadbackBw > 0)
        t.hostReadbackBw *= r.readback;
    // What the host and the software set (dispatch, round trip, per-call costs, the graph composition, the kernel
    // predictors' learned ratios) stays as measured: the same build drives the other device.
    char ratiosText[160];
    std::snprintf(ratiosText, sizeof ratiosText, "compute x%.3f, memory x%.3f, host link x%.3f", r.compute, r.memory,
                  r.readback);
    t.transferredFrom = measured.name + " (" + fromSheet.name + " -> " + toSheet.name + ": " + ratiosText + ")";
    t.description = "Transferred: " + toSheet.name + " predicted from the calibration " + measured.name
                    + " by datasheet ratios (" + ratiosText + "). " + toSheet.description;
    t.source = "transfer of " + measured.name + "; " + fromSheet.source + "; " + toSheet.source;
    t.hostProbe = {}; // the target's host was never probed
    t.loadWarnings.clear();
    return t;
}

const DeviceProfile* datasheetFor(const DeviceProfile& measured, const std::vector<const DeviceProfile*>& sheets)
{
    const std::string text = lower(measured.name + " " + measured.description + " " + measured.source);
    const DeviceProfile* found = nullptr;
    for (const DeviceProfile* s : sheets) {
        if (!s || s->device != measured.device || s->calibration != Calibration::ArchDefault)
            continue;
        const std::string token = modelToken(s->name);
        if (token.size() < 3 || text.find(token) == std::string::npos)
            continue;
        if (found)
            return nullptr; // ambiguous
        found = s;
    }
    return found;
}

} // namespace costscope
