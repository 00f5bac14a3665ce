// SPDX-License-Identifier: MIT
#pragma once
// A finished fleet sweep as the Run panel's per-device comparison (issue 23): each cell a row with its measured
// median and the predictions the worker's run made, so that a Ray sweep is read in the same table and chart as a
// run on every local device.
#include "fleet/fleet_sweep.h"
#include "multi_device_run_report.h"

#include <vector>

namespace costscope {

// One DeviceRunReport per cell, in grid order: the device named "<graph stem> b<batch> on <device>" (the worker's
// device model in brackets where the run says it), the isolated timing from the run's "whole", the RLX and Costscope
// predictions from its "predicted", and a failed cell's error. No contention phase and no spread: the cells are
// different graphs and batches, not copies of one run. backend: "ray".
MultiDeviceRunReport sweepDeviceReport(const std::vector<SweepCellResult>& results);

} // namespace costscope
