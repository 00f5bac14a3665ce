// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/device_costs.h"
#include <QTableWidget>
#include <optional>

namespace costscope {

// The selected node's cost on every device (one row per device) with the calibration tag of each device's profile;
// the pick's row in bold (the cheapest ranked device under the RLX version's rule), rows the rule leaves out in
// grey with the reason as tooltip.
class DeviceCostTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { Device, Total, Compute, Memory, Dispatch, Sync, Calibration, ColumnCount };

    explicit DeviceCostTable(QWidget* parent = nullptr);
    // The node's row in each device's cost of `graph` (the graph the costs were computed for); nullopt clears.
    void showNode(const Graph* graph, const DeviceCosts* costs, std::optional<NodeId> id);
    // Whose pick rule decides the bold row and the greyed ones (the window's RLX version); applies from the next
    // showNode().
    void setRlxVersion(RlxVersion version) { m_version = version; }
    // The node's value in ns for a device and column as last shown, or nullopt; used by tests.
    std::optional<double> valueNs(const QString& device, Column column) const;

private:
    RlxVersion m_version = kDefaultRlxVersion;
};

} // namespace costscope
