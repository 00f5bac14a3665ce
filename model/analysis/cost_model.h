// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "analysis/io_profile.h"
#include "ir/graph.h"

#include <memory>
#include <string>
#include <vector>

namespace costscope {

// Predicted cost of one node, split by where the time goes (ns).
struct NodeCost {
    NodeId id = 0;
    double computeNs = 0;
    double memoryNs = 0;
    double dispatchNs = 0;
    double syncNs = 0;
    double readbackNs = 0;
    double totalNs = 0;
    double flops = 0;
    std::uint64_t bytes = 0;
    bool skipped = false; // an unbound symbol made it uncostable
    bool learned = false; // priced by the profile's learned predictor of its kernel class (kernel_predictor.h)
    std::string note;     // e.g. "unknown op: costed as memory-bound"

    // The kernel's own time: the total less waiting on the host (sync) and reading outputs back.
    double kernelNs() const { return totalNs - syncNs - readbackNs; }
};

struct GraphCost {
    std::string model;   // "rlx" or "costscope"
    std::string profile; // DeviceProfile::name
    Device device = Device::Cpu;
    Calibration calibration = Calibration::ArchDefault; // the profile's tag: whether a pick may rank this cost
    double totalNs = 0;
    IoProfile io;
    std::vector<NodeCost> nodes; // one per graph node, in graph order
    std::vector<NodeId> skipped; // nodes that could not be costed (unbound symbols)
    std::string transferredFrom; // DeviceProfile::transferredFrom: predicted for a device from another's calibration
};

// The part of a prediction that a timed run measures, wherever a prediction meets a measurement (run, the Run
// panel, run --device all, evaluate): a timed run reads no outputs back (engine/measure.h reads them once, after the
// timed runs), so the Costscope model is held to its total less its read-back term; RLX parity's total stays as RLX
// computes it, the reference we beat.
inline double measuredPartNs(const GraphCost& c)
{
    if (c.model == "rlx")
        return c.totalNs;
    double ns = c.totalNs;
    for (const NodeCost& n : c.nodes)
        ns -= n.readbackNs;
    return ns;
}

class CostModel {
public:
    virtual ~CostModel() = default;
    virtual std::string name() const = 0; // "rlx" or "costscope"
    virtual GraphCost estimate(const Graph& g, const DeviceProfile& p, const Bindings& b = {}) const = 0;
};

std::unique_ptr<CostModel> makeCostModel(const std::string& name); // nullptr for an unknown name

} // namespace costscope
