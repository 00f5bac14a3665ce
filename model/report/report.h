// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "analysis/sweep.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// Everything a report shows, flattened from the analysis so every writer (JSON, CSV, HTML, SVG, node data, PDF)
// prints the same numbers. Schema of the JSON form: docs/report-schema.md.
struct ReportDevice {
    std::string device;  // "Cpu", "Cuda", ...
    std::string profile; // DeviceProfile::name
    double totalNs = 0;
    IoProfile io;
    std::optional<double> measuredTotalNs; // sum over matched nodes, when a trace was attached
};

struct ReportNode {
    NodeId id = 0;
    std::string name;
    std::string op;
    std::string shape;
    std::vector<std::size_t> inputs; // indices into Report::nodes
    std::vector<double> costNs;      // per device, same order as Report::devices
    std::vector<double> computeNs;
    std::vector<double> memoryNs;
    std::vector<double> dispatchNs;
    double flops = 0;
    std::uint64_t bytes = 0;
    bool skipped = false;
    std::optional<double> measuredNs;
};

struct ReportSweep {
    std::string symbol;
    std::vector<std::int64_t> values;
    std::vector<std::vector<double>> totalNs; // [value][device]
    std::vector<std::string> crossovers;
};

struct Report {
    std::string title;
    std::string source; // the graph file
    std::string model;  // cost model name
    Bindings bindings;
    std::vector<ReportDevice> devices;
    std::size_t pick = 0;   // index into devices, by the pick rule of ReportOptions::rlxVersion
    std::string pickReason; // "Cuda is 2.1x cheaper than Cpu (next best)", and any cheaper device left out
    std::vector<ReportNode> nodes;
    std::vector<std::size_t> top; // the costliest nodes on the picked device, most costly first
    std::optional<ReportSweep> sweep;
    std::string measuredSource; // trace file, when measured times were attached
    // The diagram as the GUI's canvas draws it (its groups, folded columns and heat colours, for `canvasDevice`);
    // when set, the HTML, PDF, SVG and PNG show it instead of the one laid out here, so that an export matches what
    // the user saw.
    std::string canvasSvg;
    std::string canvasDevice;
};

struct ReportOptions {
    std::string title;
    std::string source;
    std::string model;
    Bindings bindings;
    std::size_t topN = 10;
    RlxVersion rlxVersion = kDefaultRlxVersion; // whose pick rule picks the device
};

// `costs` holds one GraphCost per device for `g` (as CostModel::estimate returns them); at least one.
Report buildReport(const Graph& g, const std::vector<GraphCost>& costs, const ReportOptions& options);
// Sweep totals per device; the sweep's profiles must be the report's devices, in order.
void attachSweep(Report& r, const SweepResult& s, const std::string& symbol);
// Measured ns per graph node (index order; nullopt where no event matched), taken on `device` (an index into
// Report::devices; the pick when absent): that device's predicted total is compared with their sum.
void attachMeasured(Report& r, const std::vector<std::optional<double>>& measuredNs, const std::string& source,
                    std::optional<std::size_t> device = std::nullopt);

std::string reportTime(double ns); // "812 ns", "12.3 us", "4.56 ms", "1.20 s"

} // namespace costscope
