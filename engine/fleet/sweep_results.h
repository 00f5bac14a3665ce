// SPDX-License-Identifier: MIT
#pragma once

#include "fleet/fleet_sweep.h"

#include <string>
#include <vector>

namespace costscope {

// A fleet sweep's results as one JSON document: {"ray": URL, "cells": N, "succeeded": K, "results": [{graph,
// batch, device, status, attempts, jobs, run | error}]}, in grid order, one entry per cell.
std::string sweepResultsJson(const std::vector<SweepCellResult>& results, const std::string& rayUrl);
// One CSV row per cell: graph,batch,device,status,attempts,median_ns,rlx_ns,costscope_ns,job,error.
std::string sweepResultsCsv(const std::vector<SweepCellResult>& results);

} // namespace costscope
