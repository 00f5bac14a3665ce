// SPDX-License-Identifier: MIT
#pragma once
// Devices you do not have (issue 20): a device predicted from another one's calibration plus datasheet ratios. The
// measured profile keeps everything that belongs to the software and the host (dispatch and round trip, the graph
// composition, the kernel predictors, which learn a ratio to the analytic time and so follow the new rates), while
// its compute rates scale by the two datasheets' FP32 peaks and its bandwidths by their memory bandwidths. Like
// NeuSight's transfer to an unseen GPU, the learned part stays bounded by the target's roofline. Such a profile is
// labelled "transferred" (DeviceProfile::transferredFrom) wherever predictions are shown.
#include "analysis/device_profile.h"
#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace costscope {

struct TransferRatios {
    double compute = 1; // target FP32 peak / source FP32 peak
    double memory = 1;  // target memory bandwidth / source memory bandwidth
    double readback = 1;
};

// The ratios of two datasheet profiles of one device kind; an error names a missing or non-positive figure.
Result<TransferRatios> datasheetRatios(const DeviceProfile& fromSheet, const DeviceProfile& toSheet);

// `measured` (a calibrated profile of the source device) carried to the target: rates scaled as above, the name
// `name` (default "transferred-<target>-from-<measured>"), the calibration tag kept (the numbers are measured, then
// scaled), transferredFrom naming the source profile and the ratios. Refused across device kinds (a CUDA
// calibration says nothing about a CPU).
Result<DeviceProfile> transferProfile(const DeviceProfile& measured, const DeviceProfile& fromSheet,
                                      const DeviceProfile& toSheet, const std::string& name = {});

// The datasheet profile (among `sheets`, ArchDefault presets of the measured profile's device kind) whose model
// name appears in the measured profile's name, description or source ("nvidia-h100" for "NVIDIA H100 80GB HBM3"),
// or null when none or several do.
const DeviceProfile* datasheetFor(const DeviceProfile& measured, const std::vector<const DeviceProfile*>& sheets);

} // namespace costscope
